# Godot 3.2's side of the Godot adapter (adapters/godot/godot_adapter.py writes its job and
# reads its answer): run as `godot3-server --path PROJECT -s sample.gd` after the editor
# imported the project's glTF files (.import/*.scn, default import options).
#
# For each case of the job (the environment variable GLTF_ANIM_GODOT_JOB names the job file):
# the imported scene is loaded and instanced in the tree, its AnimationPlayer given the
# animation, and at every golden time `seek(t, true)` applies the animation; then each
# channel's node is read back: a Spatial's transform as translation, rotation quaternion
# (x, y, z, w) and scale (Basis.get_rotation_quat, Basis.get_scale: the player writes
# basis = set_quat_scale(rotation, scale)), a MeshInstance's blend shape values
# ("blend_shapes/NAME", in the mesh's blend shape order). Nodes are found by their child
# indices from the scene root (the importer builds the tree in glTF's order: scene nodes,
# then each node's children). The answer (GLTF_ANIM_GODOT_ANSWER) holds, per case, the values
# at the indices of the job's times, or the case's error.
extends SceneTree


func find_node_by_indices(root, indices):
	var node = root
	for i in indices:
		if i >= node.get_child_count():
			return null
		node = node.get_child(i)
	return node


func find_player(node):
	for child in node.get_children():
		if child is AnimationPlayer:
			return child
	return null


func read_value(node, path):
	if path == "weights":
		if not (node is MeshInstance) or node.mesh == null:
			return "not a MeshInstance with a mesh: " + str(node)
		var weights = []
		for i in range(node.mesh.get_blend_shape_count()):
			weights.append(node.get("blend_shapes/" + node.mesh.get_blend_shape_name(i)))
		return weights
	if not (node is Spatial):
		return "not a Spatial: " + str(node)
	var xform = node.transform
	if path == "translation":
		return [xform.origin.x, xform.origin.y, xform.origin.z]
	if path == "rotation":
		var q = xform.basis.get_rotation_quat()
		return [q.x, q.y, q.z, q.w]
	var s = xform.basis.get_scale()
	return [s.x, s.y, s.z]


func sample_case(job_case):
	var packed = load(job_case["scene"])
	if packed == null:
		return {"error": "the editor's import left no scene for " + job_case["scene"] + " (the importer refused the asset)"}
	var scene = packed.instance()
	get_root().add_child(scene)
	var result = {"animations": []}
	var player = find_player(scene)
	var names = []
	if player != null:
		names = player.get_animation_list()
	for job_animation in job_case["animations"]:
		var animation = {"index": job_animation["index"], "channels": []}
		var name = ""
		if names.size() == 1 and job_case["animationCount"] == 1:
			name = names[0]
		elif names.has(job_animation["name"]):
			name = job_animation["name"]
		if name == "":
			animation["error"] = "no animation of the AnimationPlayer matches (it has " + str(names) + ")"
			result["animations"].append(animation)
			continue
		animation["godotName"] = name
		animation["length"] = player.get_animation(name).length
		animation["loop"] = player.get_animation(name).loop
		player.assigned_animation = name
		var nodes = []
		for job_channel in job_animation["channels"]:
			var node = find_node_by_indices(scene, job_channel["childIndices"])
			nodes.append(node)
			var channel = {"index": job_channel["index"], "values": []}
			if node == null:
				channel["error"] = "no node at child indices " + str(job_channel["childIndices"])
			else:
				channel["godotPath"] = str(scene.get_path_to(node))
			animation["channels"].append(channel)
		var times = job_animation["times"]
		for k in range(times.size()):
			player.seek(times[k], true)
			for c in range(nodes.size()):
				var channel = animation["channels"][c]
				if nodes[c] != null and job_animation["channels"][c]["mask"][k] > 0.5:
					channel["values"].append([k, read_value(nodes[c], job_animation["channels"][c]["path"])])
		result["animations"].append(animation)
	get_root().remove_child(scene)
	scene.free()
	return result


func _initialize():
	var job_path = OS.get_environment("GLTF_ANIM_GODOT_JOB")
	var answer_path = OS.get_environment("GLTF_ANIM_GODOT_ANSWER")
	var f = File.new()
	if f.open(job_path, File.READ) != OK:
		printerr("sample.gd: cannot read the job " + job_path)
		quit(2)
		return
	var job = parse_json(f.get_as_text())
	f.close()
	var answer = {"godot": Engine.get_version_info()["string"], "cases": {}}
	for job_case in job["cases"]:
		answer["cases"][job_case["id"]] = sample_case(job_case)
	if f.open(answer_path, File.WRITE) != OK:
		printerr("sample.gd: cannot write the answer " + answer_path)
		quit(2)
		return
	f.store_string(to_json(answer))
	f.close()
	quit(0)

# Godot 3.2's side of the Godot adapter (adapters/godot/godot_adapter.py writes its job and
# reads its answer): run as `godot3-server --path PROJECT -s sample.gd` after the editor
# imported the project's glTF files (.import/*.scn, default import options).
#
# For each case of the job (the environment variable GLTF_ANIM_GODOT_JOB names the job file):
# the imported scene is loaded and instanced in the tree, its AnimationPlayer given the
# animation, and at every golden time `seek(t, true)` applies the animation; then each
# channel's node is read back: a Spatial's transform as translation, rotation quaternion
# (x, y, z, w) and scale (see read_value), a MeshInstance's blend shape values
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


# A glTF name as the importer makes it a node name (_sanitize_scene_name: every character but
# a-z, A-Z, 0-9, "_", " " and "-" removed); _gen_unique_name may add " 2", " 3"...
func sanitized(name):
	var regex = RegEx.new()
	regex.compile("[^a-zA-Z0-9_ -]+")
	return regex.sub(name, "", true)


func find_player(node):
	for child in node.get_children():
		if child is AnimationPlayer:
			return child
	return null


# The value the player applied to `node` for `path`. Node transforms: the animation's own
# (translation, rotation, scale) at the player's position, Animation.transform_track_interpolate,
# which is what AnimationPlayer accumulates and writes as basis = set_quat_scale(rotation, scale)
# (a decomposition of that basis could not tell a negative scale's axis); the node's transform is
# checked to be the one built from them. Without a transform track, the node's transform
# decomposed (Basis.get_rotation_quat, Basis.get_scale).
func read_value(scene, player, animation, node, path):
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
	var loc = xform.origin
	var q = xform.basis.get_rotation_quat()
	var s = xform.basis.get_scale()
	var track = animation.find_track(NodePath(str(scene.get_path_to(node))))
	if track >= 0 and animation.track_get_type(track) == Animation.TYPE_TRANSFORM:
		var trs = animation.transform_track_interpolate(track, player.current_animation_position)
		loc = trs[0]
		q = trs[1]
		s = trs[2]
		var rebuilt = Basis(q) * Basis(Vector3(s.x, 0, 0), Vector3(0, s.y, 0), Vector3(0, 0, s.z))
		for i in range(3):
			var difference = (rebuilt[i] - xform.basis[i]).abs()
			var size = max(1.0, max(abs(s.x), max(abs(s.y), abs(s.z))))
			if max(difference.x, max(difference.y, difference.z)) > 1e-5 * size or (loc - xform.origin).length() > 1e-5 * max(1.0, loc.length()):
				return "the node's transform " + str(xform) + " is not the track's value " + str(trs)
	if path == "translation":
		return [loc.x, loc.y, loc.z]
	if path == "rotation":
		return [q.x, q.y, q.z, q.w]
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
		elif job_animation["name"] != "" and Array(names).has(sanitized(job_animation["name"])):
			name = sanitized(job_animation["name"])  # _parse_animations: _sanitize_scene_name(name)
		if name == "":
			animation["unidentified"] = "the animation is not identified among the AnimationPlayer's " + str(names) + " (the adapter maps one animation, or equal names)"
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
			if node != null and job_channel["name"] != "" and not node.name.begins_with(sanitized(job_channel["name"])):
				node = null
			nodes[nodes.size() - 1] = node
			if node == null:
				channel["unidentified"] = "the node is not identified in the imported scene (child indices " + str(job_channel["childIndices"]) + ", name " + job_channel["name"] + ")"
			else:
				channel["godotPath"] = str(scene.get_path_to(node))
			animation["channels"].append(channel)
		var times = job_animation["times"]
		for k in range(times.size()):
			player.seek(times[k], true)
			for c in range(nodes.size()):
				var channel = animation["channels"][c]
				if nodes[c] != null and job_animation["channels"][c]["mask"][k] > 0.5:
					channel["values"].append([k, read_value(scene, player, player.get_animation(name), nodes[c], job_animation["channels"][c]["path"])])
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

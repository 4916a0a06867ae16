namespace gltf_anim::reports { int placeholder_for_skeleton_build() { return 0; } }

namespace gltf_anim::reference { int placeholder_for_skeleton_build() { return 0; } }

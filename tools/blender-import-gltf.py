"""Import a wavegraph export's water.glb into Blender and print what it sees.

    blender -b --python tools/blender-import-gltf.py -- DIR/water.glb

Prints the meshes (vertices, polygons, UV layers, bounds in Blender's z-up
axes), the materials (Principled BSDF inputs, whether the normal map is
wired through a Normal Map node) and the images (size, colour space, packed
or not), and the material's wavegraph extras (Blender keeps glTF extras as
custom properties). Exit status 1 when the file cannot be imported or lacks
the mesh, the material or the normal map. Needs Blender's glTF add-on and
numpy (Debian: blender python3-numpy). Not run in CI (Blender is heavy); the
Khronos validator (tests/test-gltf.sh) checks the file itself.
"""
import sys

import bpy
import numpy

# Debian 12's Blender 3.4 glTF importer still uses numpy.bool, which the
# numpy it runs with (1.24) removed: give it the builtin it aliased.
if "bool" not in vars(numpy):
    numpy.bool = bool


def args():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    if len(argv) != 1:
        sys.exit("usage: blender -b --python tools/blender-import-gltf.py -- water.glb")
    return argv[0]


def main():
    path = args()
    # An empty scene: the factory startup file's cube, camera and light
    # would be counted with the import.
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = bpy.ops.import_scene.gltf(filepath=path)
    if result != {"FINISHED"}:
        sys.exit(f"{path}: import failed: {result}")

    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    for obj in meshes:
        mesh = obj.data
        xs = [v.co.x for v in mesh.vertices]
        ys = [v.co.y for v in mesh.vertices]
        zs = [v.co.z for v in mesh.vertices]
        print(f"mesh {obj.name!r}: {len(mesh.vertices)} vertices, {len(mesh.polygons)} polygons, "
              f"UV layers {[uv.name for uv in mesh.uv_layers]}, "
              f"x {min(xs):g}..{max(xs):g} y {min(ys):g}..{max(ys):g} z {min(zs):g}..{max(zs):g} m")

    normal_maps = 0
    for mat in bpy.data.materials:
        if not mat.use_nodes:
            print(f"material {mat.name!r}: no nodes")
            continue
        nodes = mat.node_tree.nodes
        bsdf = next((n for n in nodes if n.type == "BSDF_PRINCIPLED"), None)
        if bsdf is not None:
            colour = tuple(round(c, 3) for c in bsdf.inputs["Base Color"].default_value)
            print(f"material {mat.name!r}: base colour {colour}, "
                  f"metallic {bsdf.inputs['Metallic'].default_value:g}, "
                  f"roughness {bsdf.inputs['Roughness'].default_value:g}")
        for n in nodes:
            if n.type == "NORMAL_MAP":
                linked = [l.from_node for l in mat.node_tree.links if l.to_node == n]
                images = [l.image.name for l in linked if l.type == "TEX_IMAGE" and l.image]
                print(f"  normal map ({n.space.lower()} space) from images {images}")
                normal_maps += bool(images)
        extras = mat.get("wavegraph")
        if extras is not None:
            extras = extras.to_dict() if hasattr(extras, "to_dict") else extras
            print(f"  extras.wavegraph: {extras.get('frame_count')} frames at "
                  f"{extras.get('frame_rate')} fps, loop {extras.get('loop_period_s')} s, "
                  f"patch {list(extras.get('patch_size_m', []))} m")

    for img in bpy.data.images:
        print(f"image {img.name!r}: {img.size[0]}x{img.size[1]}, "
              f"colour space {img.colorspace_settings.name}, packed {img.packed_file is not None}")

    if not meshes or not bpy.data.materials or normal_maps == 0:
        sys.exit(f"{path}: expected a mesh and a material with a normal map")


main()

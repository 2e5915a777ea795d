#!/usr/bin/env python3
"""Writes the viewer tests' small glTF files (run from this directory; the outputs are committed).

clips.gltf: one 2 x 1 m rectangle facing +Z (material "paint", base colour factor
0.8, 0.3, 0.1), on node 0, with two animations over [0, 1] s: "spin" turns it 90 degrees about Z,
"stretch" scales it to (1.6, 0.4, 1). At --time 1 each clip poses it differently, and both
together (the viewer's default) differently again.

clips_two_meshes.gltf: the same with a second rectangle (its own mesh and material "trim") on
node 1 beside it: a change of structure for the reload tests (2 meshes, 2 materials)."""
import base64
import json
import math
import struct


def blob(fmt, values):
    return struct.pack("<%d%s" % (len(values), fmt), *values)


def rectangle(x0):
    positions = [x0 - 1, -0.5, 0, x0 + 1, -0.5, 0, x0 + 1, 0.5, 0, x0 - 1, 0.5, 0]
    return positions, [0, 0, 1] * 4, [0, 1, 2, 0, 2, 3]


def model(two):
    data = bytearray()
    views, accessors = [], []

    def add(payload, component, count, kind, target=None, bounds=None):
        while len(data) % 4:
            data.append(0)
        view = {"buffer": 0, "byteOffset": len(data), "byteLength": len(payload)}
        if target:
            view["target"] = target
        data.extend(payload)
        views.append(view)
        acc = {"bufferView": len(views) - 1, "componentType": component, "count": count, "type": kind}
        if bounds:
            acc["min"], acc["max"] = bounds
        accessors.append(acc)
        return len(accessors) - 1

    meshes, materials, nodes = [], [], []
    colours = [("paint", [0.8, 0.3, 0.1, 1.0]), ("trim", [0.1, 0.6, 0.2, 1.0])]
    for i in range(2 if two else 1):
        x0 = 0.0 if i == 0 else 2.5
        pos, nrm, idx = rectangle(x0)
        p = add(blob("f", pos), 5126, 4, "VEC3", 34962, ([x0 - 1, -0.5, 0], [x0 + 1, 0.5, 0]))
        n = add(blob("f", nrm), 5126, 4, "VEC3", 34962)
        ix = add(blob("H", idx), 5123, 6, "SCALAR", 34963)
        meshes.append({"primitives": [{"attributes": {"POSITION": p, "NORMAL": n}, "indices": ix, "material": i}]})
        name, colour = colours[i]
        materials.append({"name": name, "doubleSided": True,
                          "pbrMetallicRoughness": {"baseColorFactor": colour, "metallicFactor": 0.0,
                                                   "roughnessFactor": 0.6}})
        nodes.append({"mesh": i, "translation": [0, 0, 0]})
    times = add(blob("f", [0.0, 1.0]), 5126, 2, "SCALAR", None, ([0.0], [1.0]))
    s = math.sqrt(0.5)
    spin = add(blob("f", [0, 0, 0, 1, 0, 0, s, s]), 5126, 2, "VEC4")
    stretch = add(blob("f", [1, 1, 1, 1.6, 0.4, 1]), 5126, 2, "VEC3")
    animations = [
        {"name": "spin", "samplers": [{"input": times, "output": spin}],
         "channels": [{"sampler": 0, "target": {"node": 0, "path": "rotation"}}]},
        {"name": "stretch", "samplers": [{"input": times, "output": stretch}],
         "channels": [{"sampler": 0, "target": {"node": 0, "path": "scale"}}]},
    ]
    uri = "data:application/octet-stream;base64," + base64.b64encode(bytes(data)).decode()
    return {"asset": {"version": "2.0", "generator": "tests/view/models/make_models.py"},
            "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}], "nodes": nodes, "meshes": meshes,
            "materials": materials, "animations": animations, "accessors": accessors, "bufferViews": views,
            "buffers": [{"byteLength": len(data), "uri": uri}]}


for name, two in (("clips.gltf", False), ("clips_two_meshes.gltf", True)):
    with open(name, "w") as f:
        json.dump(model(two), f)
        f.write("\n")

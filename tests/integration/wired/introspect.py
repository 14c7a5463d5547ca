#!/usr/bin/python3
"""The wired device's org.wpad1.Wired8021X as introspected equals the
interface in dbus/org.wpad1.xml (methods with their arguments, properties
with their types). usage: introspect.py XML-FROM-BUSCTL ORG.WPAD1.XML"""
import sys
import xml.etree.ElementTree as ET

IFACE = "org.wpad1.Wired8021X"


def members(root):
    for i in root.iter("interface"):
        if i.get("name") == IFACE:
            out = set()
            for m in i.findall("method"):
                args = tuple((a.get("type"), a.get("direction", "in")) for a in m.findall("arg"))
                out.add(("method", m.get("name"), args))
            for p in i.findall("property"):
                out.add(("property", p.get("name"), p.get("type"), p.get("access")))
            return out
    return None


got = members(ET.parse(sys.argv[1]).getroot())
want = members(ET.parse(sys.argv[2]).getroot())
if got is None:
    sys.exit("the wired device does not export " + IFACE)
if got != want:
    sys.exit("%s differs from org.wpad1.xml: exported only %s, file only %s"
             % (IFACE, sorted(got - want), sorted(want - got)))
print("%s matches org.wpad1.xml (%d members)" % (IFACE, len(got)))

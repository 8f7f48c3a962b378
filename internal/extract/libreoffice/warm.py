# The UNO client of the warm converter (warm.go), run by LibreOffice's own
# Python as `python -c <this file> <pipe name> <seconds to connect>`.
#
# It connects to the soffice started with --accept=pipe,name=<pipe>, prints
# {"ready": true}, then reads one JSON request a line from stdin:
#
#   {"in": "file:///…/source.xls", "out": "file:///…/source.xlsx",
#    "filter": "Calc MS Excel 2007 XML", "infilter": "MS Excel 97"}
#
# and answers each with one JSON line, {} or {"error": "…"}. The document
# is loaded and stored with the properties soffice --convert-to uses
# (desktop/source/app/dispatchwatcher.cxx), so both paths write the same
# file. At the end of stdin (the worker closed it or died) it ends
# LibreOffice and exits.
import json
import sys
import time

import uno
from com.sun.star.beans import PropertyValue


def props(pairs):
    out = []
    for name, value in pairs:
        p = PropertyValue()
        p.Name, p.Value = name, value
        out.append(p)
    return tuple(out)


def connect(pipe, seconds):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local)
    end = time.monotonic() + seconds
    while True:
        try:
            ctx = resolver.resolve(
                "uno:pipe,name=%s;urp;StarOffice.ComponentContext" % pipe)
            return ctx.ServiceManager.createInstanceWithContext(
                "com.sun.star.frame.Desktop", ctx)
        except Exception:
            if time.monotonic() > end:
                raise
            time.sleep(0.05)


def alive(desktop):
    try:
        desktop.getFrames()
        return True
    except Exception:
        return False


def convert(desktop, req):
    load = [("Referer", "private:OpenEvent"), ("ReadOnly", True),
            ("OpenNewView", True), ("Hidden", True), ("Silent", True)]
    if req.get("infilter"):
        load.append(("FilterName", req["infilter"]))
    try:
        doc = desktop.loadComponentFromURL(req["in"], "_blank", 0, props(load))
    except Exception:
        doc = None
    if doc is None and not alive(desktop):
        # LibreOffice died on this file: exit, so that warm.go converts
        # it once more the cold way.
        sys.exit(3)
    if doc is None:
        # soffice --convert-to's words for the same case.
        return {"error": "Error: source file could not be loaded"}
    try:
        doc.storeToURL(req["out"], props([("Overwrite", True), ("FilterName", req["filter"])]))
    except Exception as e:
        if not alive(desktop):
            sys.exit(3)
        return {"error": "Error: " + getattr(e, "Message", str(e))}
    finally:
        try:
            doc.close(True)
        except Exception:
            pass
    return {}


def main():
    desktop = connect(sys.argv[1], float(sys.argv[2]))
    out = sys.stdout
    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        out.write(json.dumps(convert(desktop, json.loads(line))) + "\n")
        out.flush()
    try:
        desktop.terminate()
    except Exception:
        pass


main()

# Writes a Writer document with filled form controls and exports it to PDF
# through LibreOffice's UNO API: mkform.py OUT.pdf (soffice must listen on
# the pipe named in $PIPE).
import os, sys, time, uno
from com.sun.star.awt import Size, Point
from com.sun.star.beans import PropertyValue

def prop(n, v):
    p = PropertyValue(); p.Name = n; p.Value = v; return p

local = uno.getComponentContext()
resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
for i in range(60):
    try:
        ctx = resolver.resolve("uno:pipe,name=%s;urp;StarOffice.ComponentContext" % os.environ["PIPE"]); break
    except Exception:
        time.sleep(0.5)
desktop = ctx.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
doc = desktop.loadComponentFromURL("private:factory/swriter", "_blank", 0, (prop("Hidden", True),))
text = doc.Text
text.insertString(text.End, "申請書の本文FORMPAGE", False)
form = doc.createInstance("com.sun.star.form.component.Form")
doc.DrawPage.Forms.insertByName("申請書", form)
y = [3000]
def control(kind, name, size, setup):
    model = doc.createInstance("com.sun.star.form.component." + kind)
    model.Name = name
    setup(model)
    shape = doc.createInstance("com.sun.star.drawing.ControlShape")
    shape.Size = Size(*size); shape.Position = Point(2000, y[0]); y[0] += size[1] + 500
    shape.Control = model
    form.insertByIndex(form.Count, model)
    doc.DrawPage.add(shape)
def text1(m): m.Text = "山田太郎FORMAA"
def text2(m): m.MultiLine = True; m.Text = "東京都千代田区\n丸の内一丁目FORMBB"
def combo(m): m.StringItemList = ("北海道", "大阪府FORMCC"); m.Dropdown = True; m.Text = "大阪府FORMCC"
def lst(m): m.StringItemList = ("転入届", "転出届FORMDD", "転居届"); m.SelectedItems = (1,)
def chk(m): m.Label = "同意する"; m.RefValue = "同意するFORMEE"; m.State = 1
def chk2(m): m.Label = "不要"; m.RefValue = "不要FORMNO"; m.State = 0
def chk3(m): m.Label = "確認済"; m.State = 1
control("TextField", "txtName", (6000, 800), text1)
control("TextField", "txtAddress", (8000, 1600), text2)
control("ComboBox", "cmbPref", (5000, 800), combo)
control("ListBox", "lstKind", (5000, 2000), lst)
control("CheckBox", "chkAgree", (5000, 800), chk)
control("CheckBox", "chkNo", (5000, 800), chk2)
control("CheckBox", "chkDone", (5000, 800), chk3)
doc.storeToURL(uno.systemPathToFileUrl(os.path.abspath(sys.argv[1])), (prop("FilterName", "writer_pdf_Export"),))
doc.close(True)
try:
    desktop.terminate()
except Exception:
    pass

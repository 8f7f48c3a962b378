package pdf

import (
	"strings"

	"github.com/klippa-app/go-pdfium"
	"github.com/klippa-app/go-pdfium/enums"
	"github.com/klippa-app/go-pdfium/references"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/structs"
)

// Form fields (issue 33). A filled PDF form (申請書, 届出書, an insurance
// certificate) keeps what was typed in its AcroForm fields, not in the
// page's content: the viewer draws each field's widget annotation from
// its value. The reader gives each page's fields as the place
// ページNNN[フォーム] (extract.PlaceForm), one line per field in the order
// of the page's widgets:
//   - a text field or a combo box: its value (/V), lines joined by spaces;
//   - a list box: the labels of its selected options, joined by spaces;
//   - a check box or radio button that is on: its export value, unless it
//     is one of the words that only say "on" (Yes, On, 1, ...), which
//     would match every checked box;
//   - a signature field: the text its widget shows (its appearance
//     stream: who signed, when, where, as signing tools draw it); its
//     value is a signature dictionary, no text (signature.go);
//   - push buttons and unchecked boxes: nothing.
//
// Field names (/T) are kept out: they are the form designer's keys
// (`Text1`, `txtName`), not what the user sees. A field with several
// widgets on one page gives its value once.
//
// The values come from PDFium's form-fill environment, which resolves a
// widget's field through the field tree (inherited /V, /FT, /Ff). The
// environment needs host callbacks for interactive use (timers, cursor,
// invalidation); none of them is used while only reading, so they do
// nothing.

// formEnv is a document's form-fill environment; nil when the document
// has no AcroForm (or the engine could not make one), which reads no
// fields.
type formEnv struct {
	inst   pdfium.Pdfium
	handle references.FPDF_FORMHANDLE
}

// openForms makes the form-fill environment of a document with an
// AcroForm; it returns nil for one without (or on any failure: the page
// text is still read).
func openForms(inst pdfium.Pdfium, doc references.FPDF_DOCUMENT) *formEnv {
	ft, err := inst.FPDF_GetFormType(&requests.FPDF_GetFormType{Document: doc})
	if err != nil || ft.FormType != enums.FPDF_FORMTYPE_ACRO_FORM {
		return nil
	}
	env, err := inst.FPDFDOC_InitFormFillEnvironment(&requests.FPDFDOC_InitFormFillEnvironment{
		Document: doc,
		FormFillInfo: structs.FPDF_FORMFILLINFO{
			FFI_Invalidate:         func(references.FPDF_PAGE, float64, float64, float64, float64) {},
			FFI_SetCursor:          func(enums.FXCT) {},
			FFI_SetTimer:           func(int, func(int)) int { return 0 },
			FFI_KillTimer:          func(int) {},
			FFI_GetLocalTime:       func() structs.FPDF_SYSTEMTIME { return structs.FPDF_SYSTEMTIME{} },
			FFI_GetPage:            func(references.FPDF_DOCUMENT, int) *references.FPDF_PAGE { return nil },
			FFI_GetRotation:        func(references.FPDF_PAGE) enums.FPDF_PAGE_ROTATION { return enums.FPDF_PAGE_ROTATION_NONE },
			FFI_ExecuteNamedAction: func(string) {},
		},
	})
	if err != nil {
		return nil
	}
	return &formEnv{inst: inst, handle: env.FormHandle}
}

// close ends the environment (before the document is closed).
func (f *formEnv) close() {
	if f == nil {
		return
	}
	f.inst.FPDFDOC_ExitFormFillEnvironment(&requests.FPDFDOC_ExitFormFillEnvironment{FormHandle: f.handle})
}

// fields returns the values of the page's form fields, one line each,
// and the rectangles of its signature widgets (signature.go reads their
// text).
func (f *formEnv) fields(pg requests.Page) ([]string, []rect) {
	if f == nil {
		return nil, nil
	}
	inst := f.inst
	n, err := inst.FPDFPage_GetAnnotCount(&requests.FPDFPage_GetAnnotCount{Page: pg})
	if err != nil {
		return nil, nil
	}
	var lines []string
	var sigs []rect
	seen := map[[2]string]bool{}
	for j := 0; j < n.Count; j++ {
		a, err := inst.FPDFPage_GetAnnot(&requests.FPDFPage_GetAnnot{Page: pg, Index: j})
		if err != nil {
			continue
		}
		st, err := inst.FPDFAnnot_GetSubtype(&requests.FPDFAnnot_GetSubtype{Annotation: a.Annotation})
		if err == nil && st.Subtype == enums.FPDF_ANNOT_SUBTYPE_WIDGET {
			if r, ok := f.signature(a.Annotation); ok {
				sigs = append(sigs, r)
			} else if v := f.value(a.Annotation); v != "" {
				// The field's name only tells a second widget of
				// the same field from another field of equal value.
				name, _ := inst.FPDFAnnot_GetFormFieldName(&requests.FPDFAnnot_GetFormFieldName{FormHandle: f.handle, Annotation: a.Annotation})
				key := [2]string{"", v}
				if name != nil {
					key[0] = name.FormFieldName
				}
				if !seen[key] {
					seen[key] = true
					lines = append(lines, v)
				}
			}
		}
		inst.FPDFPage_CloseAnnot(&requests.FPDFPage_CloseAnnot{Annotation: a.Annotation})
	}
	return lines, sigs
}

// signature returns the rectangle of a signature field's widget.
func (f *formEnv) signature(a references.FPDF_ANNOTATION) (rect, bool) {
	t, err := f.inst.FPDFAnnot_GetFormFieldType(&requests.FPDFAnnot_GetFormFieldType{FormHandle: f.handle, Annotation: a})
	if err != nil || t.FormFieldType != enums.FPDF_FORMFIELD_TYPE_SIGNATURE {
		return rect{}, false
	}
	r, err := f.inst.FPDFAnnot_GetRect(&requests.FPDFAnnot_GetRect{Annotation: a})
	if err != nil {
		return rect{}, false
	}
	box := normRect(rect{float64(r.Rect.Left), float64(r.Rect.Bottom), float64(r.Rect.Right), float64(r.Rect.Top)})
	return box, box.right > box.left && box.top > box.bottom
}

// value returns the text a widget's field shows, "" for none.
func (f *formEnv) value(a references.FPDF_ANNOTATION) string {
	inst := f.inst
	t, err := inst.FPDFAnnot_GetFormFieldType(&requests.FPDFAnnot_GetFormFieldType{FormHandle: f.handle, Annotation: a})
	if err != nil {
		return ""
	}
	switch t.FormFieldType {
	case enums.FPDF_FORMFIELD_TYPE_TEXTFIELD, enums.FPDF_FORMFIELD_TYPE_COMBOBOX:
		v, err := inst.FPDFAnnot_GetFormFieldValue(&requests.FPDFAnnot_GetFormFieldValue{FormHandle: f.handle, Annotation: a})
		if err != nil {
			return ""
		}
		return oneLine(v.FormFieldValue)
	case enums.FPDF_FORMFIELD_TYPE_LISTBOX:
		n, err := inst.FPDFAnnot_GetOptionCount(&requests.FPDFAnnot_GetOptionCount{FormHandle: f.handle, Annotation: a})
		if err != nil {
			return ""
		}
		var sel []string
		for i := 0; i < n.OptionCount; i++ {
			s, err := inst.FPDFAnnot_IsOptionSelected(&requests.FPDFAnnot_IsOptionSelected{FormHandle: f.handle, Annotation: a, Index: i})
			if err != nil || !s.IsOptionSelected {
				continue
			}
			l, err := inst.FPDFAnnot_GetOptionLabel(&requests.FPDFAnnot_GetOptionLabel{FormHandle: f.handle, Annotation: a, Index: i})
			if err == nil {
				if v := oneLine(l.OptionLabel); v != "" {
					sel = append(sel, v)
				}
			}
		}
		return strings.Join(sel, " ")
	case enums.FPDF_FORMFIELD_TYPE_CHECKBOX, enums.FPDF_FORMFIELD_TYPE_RADIOBUTTON:
		c, err := inst.FPDFAnnot_IsChecked(&requests.FPDFAnnot_IsChecked{FormHandle: f.handle, Annotation: a})
		if err != nil || !c.IsChecked {
			return ""
		}
		e, err := inst.FPDFAnnot_GetFormFieldExportValue(&requests.FPDFAnnot_GetFormFieldExportValue{FormHandle: f.handle, Annotation: a})
		if err != nil {
			return ""
		}
		if v := oneLine(e.Value); meaningfulExport(v) {
			return v
		}
	}
	return ""
}

// onWords are export values that only say a box is checked (Acrobat's
// default Yes, On, and what form tools write); indexing them would make
// every checked box a hit for "yes".
var onWords = map[string]bool{"yes": true, "on": true, "off": true, "true": true, "1": true, "0": true, "x": true, "checked": true}

// meaningfulExport reports whether a checked box's export value says
// something of its own (`同意する`, `男性`, `Express`).
func meaningfulExport(v string) bool {
	return v != "" && !onWords[strings.ToLower(v)]
}

package indexer

import (
	"path/filepath"
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// Hidden sheets (issue 31): a root's hiddenSheets setting makes the
// workbook readers read hidden sheets too (extract.Options.HiddenSheets,
// sent with each request). run_stats.json keeps, per index, the setting
// its workbooks were last read with (IndexRunStats.HiddenSheets); while
// the two differ, the plan reads the index's unchanged workbooks again
// (plan.Input.Again, as for files waiting for OCR). The recorded value
// follows the setting only once the ingest list that makes those files
// 未取り込み is written, and only for a run that crawled the whole root,
// so a run killed or declined before that reads them again next time.

// workbookExts are the extensions whose reader knows hidden sheets.
var workbookExts = map[string]bool{".xlsx": true, ".xlsm": true, ".xlsb": true, ".xls": true, ".ods": true, ".fods": true}

// isWorkbook reports whether a relative path names a workbook.
func isWorkbook(rel string) bool {
	return workbookExts[strings.ToLower(filepath.Ext(rel))]
}

// hiddenSheetsOf reports whether the root of a file (its relative path)
// reads hidden sheets.
func (r *run) hiddenSheetsOf(rel string) bool {
	if r.opt.Settings == nil || !isWorkbook(rel) {
		return false
	}
	index, _, _ := strings.Cut(rel, `\`)
	root, _, ok := r.opt.Settings.Root(index)
	return ok && root.HiddenSheets
}

// hiddenAgain returns the indexes whose workbooks are read again: those
// whose setting differs from the one recorded; nil when none.
func (r *run) hiddenAgain() map[string]bool {
	var out map[string]bool
	for _, root := range r.opt.Settings.Roots {
		if root.HiddenSheets != r.stats[root.Name].HiddenSheets {
			if out == nil {
				out = map[string]bool{}
			}
			out[workspace.FoldKey(root.Name)] = true
		}
	}
	return out
}

// again combines the reasons to read an unchanged 済 file again: it waits
// for OCR and an engine is there (ocrAgain), or it is a workbook of an
// index whose hidden-sheets setting changed.
func (r *run) again() func(rel string) bool {
	ocr, hidden := r.ocrAgain(), r.hiddenAgain()
	if hidden == nil {
		return ocr
	}
	return func(rel string) bool {
		if ocr != nil && ocr(rel) {
			return true
		}
		index, _, _ := strings.Cut(rel, `\`)
		return isWorkbook(rel) && hidden[workspace.FoldKey(index)]
	}
}

// recordHiddenSheets records the setting of every root this run crawled
// whole, once the ingest list holding the targets is written.
func (r *run) recordHiddenSheets(scans []rootScan) error {
	changed := false
	for _, sc := range scans {
		if sc.res == nil {
			continue
		}
		if only, _ := r.opt.scope(sc.root.Name); len(only) > 0 {
			continue
		}
		st := r.stats[sc.root.Name]
		if st.HiddenSheets != sc.root.HiddenSheets {
			st.HiddenSheets = sc.root.HiddenSheets
			r.stats[sc.root.Name] = st
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return writeRunStats(r.ws, r.stats)
}

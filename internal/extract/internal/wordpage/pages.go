package wordpage

import (
	"sort"

	"github.com/fumibako/fumibako/internal/extract"
)

// Word place names (reference/extraction.md §2.1).
const (
	Footnotes   = extract.PlaceFootnotes
	DocComments = extract.PlaceDocument + extract.PlaceComment
)

// page collects the places of one page.
type page struct {
	Body, Shapes, Comments []string
	Embeds                 []extract.Place
}

// Pages are the pages of a Word document by number (.docx and .doc).
// Estimated marks pages counted by Layout.Estimate rather than recorded
// by Word: their place names end in extract.EstimateSuffix.
type Pages struct {
	Estimated bool
	m         map[int]*page
}

// At returns page n, creating it.
func (pages *Pages) At(n int) *page {
	if pages.m == nil {
		pages.m = map[int]*page{}
	}
	if pages.m[n] == nil {
		pages.m[n] = &page{}
	}
	return pages.m[n]
}

// Name is the place name of page n: ページNNN, with （目安） when the
// pages are estimated.
func (pages *Pages) Name(n int) string {
	if pages.Estimated {
		return extract.PageName(n) + extract.EstimateSuffix
	}
	return extract.PageName(n)
}

// AddPlaces appends the places of every page to res in page order:
// ページNNN, its [図形], its [コメント], then its embeds.
func (pages *Pages) AddPlaces(res *extract.Result) {
	nums := make([]int, 0, len(pages.m))
	for n := range pages.m {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	for _, n := range nums {
		pg := pages.m[n]
		name := pages.Name(n)
		extract.AddPlace(res, name, pg.Body)
		extract.AddPlace(res, name+extract.PlaceShape, pg.Shapes)
		extract.AddPlace(res, name+extract.PlaceComment, pg.Comments)
		res.Places = append(res.Places, pg.Embeds...)
	}
}

// Comment is one w:comment: its id, the id as a number for ordering
// (ids that are not numbers sort last) and its paragraphs joined by spaces.
type Comment struct {
	Id   string
	Num  int64
	Text string
}

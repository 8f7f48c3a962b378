// Package wordpage numbers the pages of Word documents that record no page
// breaks (issue 16): it lays a body out roughly as LibreOffice would, from
// the page setup and styles, so a long document is not put on page 1 and
// its places read ページNNN（目安）.
package wordpage

// Package layers holds no code: its test enforces the one-way imports
// between fumibako's packages (STYLE.md §1, DESIGN.md "The house").
package layers

package crawl

import (
	"strings"

	"github.com/fumibako/fumibako/internal/workspace"
)

// scope is a tree of the paths a scoped crawl keeps (Options.Only), keyed
// by fold key per path segment. A node marked all keeps its whole subtree.
type scope struct {
	all      bool
	children map[string]*scope
}

func newScope(paths []string) *scope {
	root := &scope{children: map[string]*scope{}}
	for _, p := range paths {
		n := root
		for _, seg := range strings.Split(p, `\`) {
			if seg == "" || n.all {
				continue
			}
			k := workspace.FoldKey(seg)
			c := n.children[k]
			if c == nil {
				c = &scope{children: map[string]*scope{}}
				n.children[k] = c
			}
			n = c
		}
		n.all = true
		n.children = nil
	}
	return root
}

// child returns the node of an entry named name: nil when the scope does
// not keep it; a nil scope (no scope) keeps everything and returns nil.
func (s *scope) child(name string) *scope {
	if s == nil {
		return nil
	}
	if s.all {
		return s
	}
	return s.children[workspace.FoldKey(name)]
}

// below is the scope for the walk of a kept folder: nil (everything) once
// a node keeps its whole subtree.
func (s *scope) below() *scope {
	if s == nil || s.all {
		return nil
	}
	return s
}

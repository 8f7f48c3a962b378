package xmlscan

import "bytes"

// Namespaces, resolved as encoding/xml resolves them (its translate): an
// element's prefix through the xmlns:prefix bindings of the open
// elements, no prefix through the innermost xmlns default; an
// attribute's prefix likewise, but no prefix means no namespace. The
// prefix xml is the XML namespace, xmlns stays itself, and an unbound
// prefix stands for itself.

const xmlURL = "http://www.w3.org/XML/1998/namespace"

// binding is one xmlns declaration of an open element.
type binding struct {
	prefix, uri string
	depth       int // len(ends) of the element that declares it
	shadows     int // the index in binds of the binding of prefix it hides; -1: none
}

// The bindings in force are found through a map from prefix to the
// innermost binding, not by walking binds: a hostile part can declare
// thousands of prefixes, and a walk per element would make its reading
// quadratic (encoding/xml keeps a map too).

// bind records the xmlns declarations of the start element just pushed.
func (s *Scanner) bind() {
	if bytes.Index(s.attrs, []byte("xmlns")) < 0 {
		return
	}
	s.EachAttr(func(prefix, local, value []byte) bool {
		switch {
		case string(prefix) == "xmlns":
			s.push(string(local), string(value))
		case prefix == nil && string(local) == "xmlns":
			s.push("", string(value))
		}
		return true
	})
}

// push binds prefix to uri for the element just pushed.
func (s *Scanner) push(prefix, uri string) {
	if s.inForce == nil {
		s.inForce = map[string]int{}
	}
	b := binding{prefix: prefix, uri: uri, depth: len(s.ends), shadows: -1}
	if i, ok := s.inForce[prefix]; ok {
		b.shadows = i
	}
	s.inForce[prefix] = len(s.binds)
	s.binds = append(s.binds, b)
}

// unbind drops the declarations of the element just popped.
func (s *Scanner) unbind() {
	for n := len(s.binds); n > 0 && s.binds[n-1].depth > len(s.ends); n-- {
		b := s.binds[n-1]
		if b.shadows >= 0 {
			s.inForce[b.prefix] = b.shadows
		} else {
			delete(s.inForce, b.prefix)
		}
		s.binds = s.binds[:n-1]
	}
}

// lookup returns the URI bound to prefix ("" is the default namespace).
func (s *Scanner) lookup(prefix []byte) (string, bool) {
	if i, ok := s.inForce[string(prefix)]; ok {
		return s.binds[i].uri, true
	}
	return "", false
}

// Space returns the namespace URI of the current start or end element
// (with Namespaces set).
func (s *Scanner) Space() string {
	switch {
	case s.Prefix != nil:
		return s.Resolve(s.Prefix)
	case string(s.Name) == "xmlns":
		return ""
	}
	uri, _ := s.lookup(nil) // the default namespace, "" when none
	return uri
}

// Resolve returns the namespace URI of an attribute prefix (with
// Namespaces set): "" for none.
func (s *Scanner) Resolve(prefix []byte) string {
	switch {
	case prefix == nil:
		return ""
	case string(prefix) == "xmlns":
		return "xmlns"
	case string(prefix) == "xml":
		return xmlURL
	}
	if uri, ok := s.lookup(prefix); ok {
		return uri
	}
	return string(prefix)
}

// EachAttr calls visit with the prefix, local name and decoded value of
// each attribute of the current start element, in order, until visit
// returns false. The slices are valid until the next call of Next.
func (s *Scanner) EachAttr(visit func(prefix, local, value []byte) bool) {
	for a := s.attrs; ; {
		name, val, rest, ok := nextAttr(a)
		if !ok {
			return
		}
		a = rest
		prefix, local := splitName(name)
		if !visit(prefix, local, attrValue(val)) {
			return
		}
	}
}

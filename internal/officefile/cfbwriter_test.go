package officefile

import (
	"encoding/binary"
	"unicode/utf16"

	"github.com/fumibako/fumibako/internal/officefile/cfb"
)

// Node is one entry of a compound file built by BuildCFB: a stream when
// Children is nil and Storage is false, else a storage.
type Node struct {
	Name     string
	Data     []byte
	Storage  bool
	Children []Node
}

// BuildCFB writes a version-3 compound file (512-byte sectors) holding the
// given root children: streams under 4,096 bytes go to the mini stream, the
// others to regular sectors, as Office writes them. Siblings are chained
// through their right ids (a valid, if unbalanced, tree).
func BuildCFB(children []Node) []byte {
	const ss = 512
	type dirEnt struct {
		name               string
		typ                byte
		left, right, child uint32
		start              uint32
		size               uint32
		data               []byte
		mini               bool
	}
	ents := []dirEnt{{name: "Root Entry", typ: cfb.TypeRoot, left: cfb.NoStream, right: cfb.NoStream, child: cfb.NoStream}}
	var add func(parent int, nodes []Node)
	add = func(parent int, nodes []Node) {
		prev := -1
		for _, n := range nodes {
			id := len(ents)
			e := dirEnt{name: n.Name, typ: cfb.TypeStream, left: cfb.NoStream, right: cfb.NoStream, child: cfb.NoStream, data: n.Data, size: uint32(len(n.Data))}
			if n.Storage || n.Children != nil {
				e.typ, e.data, e.size = cfb.TypeStorage, nil, 0
			}
			ents = append(ents, e)
			if prev < 0 {
				ents[parent].child = uint32(id)
			} else {
				ents[prev].right = uint32(id)
			}
			prev = id
			if e.typ == cfb.TypeStorage {
				add(id, n.Children)
			}
		}
	}
	add(0, children)

	// Mini stream and mini FAT.
	var mini []byte
	var miniFAT []uint32
	for i := range ents {
		e := &ents[i]
		if e.typ != cfb.TypeStream || len(e.data) >= 4096 {
			continue
		}
		e.mini = true
		if len(e.data) == 0 {
			e.start = cfb.EndOfChain
			continue
		}
		e.start = uint32(len(mini) / 64)
		n := (len(e.data) + 64 - 1) / 64
		for k := 0; k < n; k++ {
			if k == n-1 {
				miniFAT = append(miniFAT, cfb.EndOfChain)
			} else {
				miniFAT = append(miniFAT, uint32(len(miniFAT)+1))
			}
		}
		mini = append(mini, e.data...)
		for len(mini)%64 != 0 {
			mini = append(mini, 0)
		}
	}
	sectors := func(n int) int { return (n + ss - 1) / ss }
	dirSecs := sectors(len(ents) * cfb.EntrySize)
	miniFATSecs := sectors(len(miniFAT) * 4)
	miniSecs := sectors(len(mini))
	var bigSecs []int
	total := dirSecs + miniFATSecs + miniSecs
	for _, e := range ents {
		if e.typ == cfb.TypeStream && !e.mini {
			bigSecs = append(bigSecs, sectors(len(e.data)))
			total += sectors(len(e.data))
		}
	}
	fatSecs := 1
	for (total+fatSecs)*4 > fatSecs*ss {
		fatSecs++
	}
	nsec := total + fatSecs
	fat := make([]uint32, fatSecs*ss/4)
	for i := range fat {
		fat[i] = cfb.NoStream
	}
	next := 0
	alloc := func(n int) uint32 {
		if n == 0 {
			return cfb.EndOfChain
		}
		start := next
		for k := 0; k < n; k++ {
			if k == n-1 {
				fat[next] = cfb.EndOfChain
			} else {
				fat[next] = uint32(next + 1)
			}
			next++
		}
		return uint32(start)
	}
	for k := 0; k < fatSecs; k++ {
		fat[next] = 0xFFFFFFFD
		next++
	}
	dirStart := alloc(dirSecs)
	miniFATStart := alloc(miniFATSecs)
	ents[0].start = alloc(miniSecs)
	ents[0].size = uint32(len(mini))
	bi := 0
	for i := range ents {
		if ents[i].typ == cfb.TypeStream && !ents[i].mini {
			ents[i].start = alloc(bigSecs[bi])
			bi++
		}
	}

	out := make([]byte, (nsec+1)*ss)
	le := binary.LittleEndian
	h := out[:ss]
	copy(h, cfbSignature)
	le.PutUint16(h[24:], 0x3E)
	le.PutUint16(h[26:], 3)
	le.PutUint16(h[28:], 0xFFFE)
	le.PutUint16(h[30:], 9)
	le.PutUint16(h[32:], 6)
	le.PutUint32(h[44:], uint32(fatSecs))
	le.PutUint32(h[48:], dirStart)
	le.PutUint32(h[56:], 4096)
	le.PutUint32(h[60:], miniFATStart)
	le.PutUint32(h[64:], uint32(miniFATSecs))
	le.PutUint32(h[68:], cfb.EndOfChain)
	for i := 0; i < 109; i++ {
		v := uint32(cfb.NoStream)
		if i < fatSecs {
			v = uint32(i)
		}
		le.PutUint32(h[76+4*i:], v)
	}
	at := func(sec uint32) []byte { return out[(int(sec)+1)*ss:] }
	for i, v := range fat {
		le.PutUint32(out[ss+4*i:], v)
	}
	for i, e := range ents {
		b := at(dirStart)[i*cfb.EntrySize : (i+1)*cfb.EntrySize]
		u := utf16.Encode([]rune(e.name))
		for k, c := range u {
			le.PutUint16(b[2*k:], c)
		}
		le.PutUint16(b[64:], uint16(2*len(u)+2))
		b[66] = e.typ
		b[67] = 1
		le.PutUint32(b[68:], e.left)
		le.PutUint32(b[72:], e.right)
		le.PutUint32(b[76:], e.child)
		le.PutUint32(b[116:], e.start)
		le.PutUint32(b[120:], e.size)
	}
	for i := len(ents); i < dirSecs*ss/cfb.EntrySize; i++ {
		b := at(dirStart)[i*cfb.EntrySize:]
		le.PutUint32(b[68:], cfb.NoStream)
		le.PutUint32(b[72:], cfb.NoStream)
		le.PutUint32(b[76:], cfb.NoStream)
	}
	if miniFATSecs > 0 {
		for i, v := range miniFAT {
			le.PutUint32(at(miniFATStart)[4*i:], v)
		}
		for i := len(miniFAT); i < miniFATSecs*ss/4; i++ {
			le.PutUint32(at(miniFATStart)[4*i:], cfb.NoStream)
		}
	}
	if miniSecs > 0 {
		copy(at(ents[0].start), mini)
	}
	for _, e := range ents {
		if e.typ == cfb.TypeStream && !e.mini && len(e.data) > 0 {
			copy(at(e.start), e.data)
		}
	}
	return out
}

package format

import (
	"encoding/binary"
	"errors"
	"os"
	"sort"

	"github.com/fumibako/fumibako/internal/osfile"
)

// KeyFile is the gram keys of a part (the gram section's sorted keys and
// the gram index, doc.go), read from its file a range at a time. The
// summary writer reads each part of a changed group once per band of
// rows, 13 to 22 times for a 600 MB summary; mapping and parsing the part
// each time cost a third of a 10 GB "1 % changed" run, most of it in
// munmap's TLB shootdowns across the writer's threads. A few small preads
// read only the band's keys instead.
type KeyFile struct {
	f       *os.File
	keysOff int64 // file offset of key 0
	n       int   // key count
	// indexEntry is the gram index's section entry (nil without one);
	// KeysIn reads index, every GramIndexStep-th key, from it once.
	indexEntry []byte
	index      []uint32
}

var errKeys = errors.New("bodyindex: gram section out of range")

// OpenKeys opens the part at path and reads its header, its section
// directory and its key count (PartKeyCount needs no more); KeysIn reads
// the gram index.
func OpenKeys(path string) (*KeyFile, error) {
	f, err := osfile.OpenRead(path)
	if err != nil {
		return nil, err
	}
	k, err := readKeyFile(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return k, nil
}

func readKeyFile(f *os.File) (*KeyFile, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	head := make([]byte, partHeaderSize+sectionEntrySize*maxSections)
	n, _ := f.ReadAt(head, 0)
	head = head[:n]
	le := binary.LittleEndian
	if len(head) < partHeaderSize || string(head[:8]) != partMagic || le.Uint32(head[8:]) != Version {
		return nil, errKeys
	}
	count := int(le.Uint32(head[12:]))
	if count > maxSections || len(head) < partHeaderSize+sectionEntrySize*count {
		return nil, errKeys
	}
	var grams, index []byte // section entries
	for i := 0; i < count; i++ {
		e := head[partHeaderSize+sectionEntrySize*i:]
		switch le.Uint32(e) {
		case tagGrams:
			grams = e[:sectionEntrySize]
		case tagGramIndex:
			index = e[:sectionEntrySize]
		}
	}
	inFile := func(e []byte) bool { return int64(le.Uint32(e[4:]))+int64(le.Uint32(e[8:])) <= st.Size() }
	if grams == nil || !inFile(grams) || le.Uint32(grams[8:]) < 4 {
		return nil, errKeys
	}
	off, size := int64(le.Uint32(grams[4:])), int64(le.Uint32(grams[8:]))
	var c [4]byte
	if _, err := f.ReadAt(c[:], off); err != nil {
		return nil, err
	}
	k := &KeyFile{f: f, keysOff: off + 4, n: int(le.Uint32(c[:]))}
	if int64(k.n) > (size-4)/gramRowMin {
		return nil, errKeys
	}
	if index != nil {
		if !inFile(index) || int64(le.Uint32(index[8:])) != 4*int64((k.n+GramIndexStep-1)/GramIndexStep) {
			return nil, errKeys
		}
		k.indexEntry = index
	}
	return k, nil
}

// readIndex reads the gram index, once.
func (k *KeyFile) readIndex() error {
	if k.indexEntry == nil || k.index != nil {
		return nil
	}
	le := binary.LittleEndian
	b := make([]byte, le.Uint32(k.indexEntry[8:]))
	if _, err := k.f.ReadAt(b, int64(le.Uint32(k.indexEntry[4:]))); err != nil {
		return err
	}
	k.index = make([]uint32, len(b)/4)
	for i := range k.index {
		k.index[i] = le.Uint32(b[4*i:])
	}
	return nil
}

// KeysIn returns the keys k with from <= k < to, little-endian, 4 bytes
// each. The gram index bounds the run to read to at most two strides more
// than the keys in range.
func (k *KeyFile) KeysIn(from, to uint64) ([]byte, error) {
	if to <= from {
		return nil, nil
	}
	if err := k.readIndex(); err != nil {
		return nil, err
	}
	lo, hi := 0, k.n
	if k.index != nil {
		a := sort.Search(len(k.index), func(j int) bool { return uint64(k.index[j]) >= from })
		b := sort.Search(len(k.index), func(j int) bool { return uint64(k.index[j]) >= to })
		lo, hi = max(0, (a-1)*GramIndexStep), min(k.n, b*GramIndexStep)
	}
	if hi <= lo {
		return nil, nil
	}
	buf := make([]byte, 4*(hi-lo))
	if _, err := k.f.ReadAt(buf, k.keysOff+4*int64(lo)); err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	n := len(buf) / 4
	i := sort.Search(n, func(i int) bool { return uint64(le.Uint32(buf[4*i:])) >= from })
	j := sort.Search(n, func(i int) bool { return uint64(le.Uint32(buf[4*i:])) >= to })
	if j < i {
		return nil, errKeys // not sorted
	}
	return buf[4*i : 4*j], nil
}

// Close closes the part's file.
func (k *KeyFile) Close() error { return k.f.Close() }

// PartKeyCount returns how many keys a part has, from its header, its
// section directory and the first word of its gram section (three small
// reads: mapping and parsing every part twice cost a third of a
// summary). 0 when it cannot tell: the summary writer then fails on the
// part too.
func PartKeyCount(path string) int {
	k, err := OpenKeys(path)
	if err != nil {
		return 0
	}
	defer k.Close()
	return k.n
}

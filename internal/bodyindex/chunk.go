package bodyindex

// Sizes that shape the chunks of parts that Publish plans (planChunks).
// Variables so that tests can make small chunks.
var (
	// chunkMax and chunkMin bound the text bytes of whole files that the
	// planner puts into one chunk of parts; chunkAnchor decides, from the
	// file name alone, where a chunk may end once it holds chunkMin, so that
	// a changed file moves only the boundaries near it.
	//
	// A chunk is the unit of re-encoding: a changed file costs its chunk
	// (about 300 KB of text with files of 10–90 KB), where 3–4 MB chunks
	// re-encoded whole folders (1 % of 10 GB changed: 2 min 25 s, against
	// 58 s with these). Smaller chunks mean more parts, each repeating the
	// common keys in its gram section: 64 KB–512 KB chunks of about 210 KB
	// make the index 1.40× the text (128–256 KB: 1.45×; 3–4 MB: 1.25×).
	// The summary gives a column to a group of about 4 MB of parts
	// (summary_groups.go), not to each part, so that small parts do not
	// thin its bits per key. The minimum is small and anchors are 1 file
	// in 4, so that almost every boundary is an anchor whatever the sizes
	// before it: a boundary moved by a file that grew, was added or was
	// removed meets the old ones again at the next anchor (with a 256 KB
	// minimum and 1 file in 2, a removal re-encoded up to 14 chunks of a
	// 100-file folder in simulation; here at most 4).
	chunkMax    = 512 << 10
	chunkMin    = 64 << 10
	chunkAnchor = uint32(3) // end before a file whose name hash has these low bits 0
)

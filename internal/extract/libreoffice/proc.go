package libreoffice

import (
	"os"

	"github.com/fumibako/fumibako/internal/proctree"
)

// killTree and childAttr are proctree's, named as the converter's code
// has always called them.
var (
	killTree  = proctree.KillTree
	childAttr = proctree.ChildAttr
)

// KillConverters kills every process this process started, with what
// they started (the converters a worker keeps warm), at once and without
// waiting for a conversion in progress: a worker whose coordinator is gone
// ends them before it exits (issue 36), whether or not the system ends
// them with it (Pdeathsig on Linux, the Job Object on Windows).
func KillConverters() {
	for _, c := range proctree.Children()[os.Getpid()] {
		killTree(c)
	}
}

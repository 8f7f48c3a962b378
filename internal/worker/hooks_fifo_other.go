//go:build testhooks && !unix

package worker

// replaceWithFIFO does nothing where files cannot be named pipes.
func replaceWithFIFO(path string) {}

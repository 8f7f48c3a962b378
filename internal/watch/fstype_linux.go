package watch

import "golang.org/x/sys/unix"

// Magic numbers of file systems whose inotify events miss changes made on
// other machines (linux/magic.h and fs/*: the network and FUSE ones).
var networkMagic = map[int64]string{
	0x6969:     "nfs",
	0x517B:     "smb",
	0xFF534D42: "cifs",
	0xFE534D42: "smb2",
	0x65735546: "fuse",
	0x01021997: "9p",
	0x00C36400: "ceph",
	0x5346414F: "afs",
	0x47504653: "gpfs",
	0x013111A8: "ibrix",
	0x73757245: "coda",
	0x564c:     "ncp",
}

// networkFS names the network file system path is on ("" for a local one).
func networkFS(path string) string {
	var st unix.Statfs_t
	if unix.Statfs(path, &st) != nil {
		return ""
	}
	return networkMagic[int64(st.Type)&0xFFFFFFFF]
}

package extract

import (
	"os/exec"
	"strconv"
)

// loKillTree kills pid and every process it started (soffice.exe starts
// soffice.bin) with taskkill's tree option.
func loKillTree(pid int) {
	_ = exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run()
}

package cpupriority

import (
	"runtime"
	"syscall"
)

// lower locks the goroutine to its thread for good (the thread ends with
// it) and raises the thread's nice value; a refusal leaves the priority
// as it was, which costs fairness, not correctness.
func lower() {
	runtime.LockOSThread()
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), Nice)
}

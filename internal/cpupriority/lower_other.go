//go:build !linux

package cpupriority

// lower does nothing where threads have no nice value of their own.
func lower() {}

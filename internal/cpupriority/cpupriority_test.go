//go:build linux

package cpupriority

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

// threadNice reads the calling thread's nice value from /proc.
func threadNice(t *testing.T) int {
	raw, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	// Fields after the command name, which may hold spaces: nice is the
	// 19th field of the line, the 17th after ')'.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	n, err := strconv.Atoi(f[16])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRunLowersOnlyTheWorksThread(t *testing.T) {
	var inside int
	want := errors.New("the work's own error")
	err := Run(func() error {
		inside = threadNice(t)
		return want
	})
	if !errors.Is(err, want) {
		t.Errorf("Run returned %v", err)
	}
	if inside != Nice {
		t.Errorf("the work ran at nice %d, want %d", inside, Nice)
	}
	// Many times over: the caller's threads keep their priority (the
	// lowered threads end with their work, none is reused).
	for range 50 {
		_ = Run(func() error { return nil })
	}
	if n := threadNice(t); n != 0 {
		t.Errorf("the caller's thread is at nice %d", n)
	}
}

func TestRunRaisesAPanicInTheCaller(t *testing.T) {
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v, want the work's panic", r)
		}
	}()
	_ = Run(func() error { panic("boom") })
	t.Error("Run returned after a panic")
}

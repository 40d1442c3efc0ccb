// Package version tells which build is running. The values are stamped at
// link time (make build, make image):
//
//	-ldflags "-X github.com/edh-platform/rms-portal/internal/version.version=1.4.0 ..."
//
// and otherwise come from the module's build information (go run, go
// install), so that a build always says something true about itself.
package version

import (
	"runtime"
	"runtime/debug"
	"time"
)

// Stamped at link time; read through Get.
var (
	version = ""
	commit  = ""
	date    = ""
)

// Info describes the running build.
type Info struct {
	Version   string `json:"version"`
	Commit    string `json:"commit"`
	Date      string `json:"date"`
	GoVersion string `json:"go_version"`
}

// Get returns the running build's description.
func Get() Info {
	i := Info{Version: version, Commit: commit, Date: date, GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if i.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			i.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && i.Commit == "":
				i.Commit = s.Value
			case s.Key == "vcs.time" && i.Date == "":
				i.Date = s.Value
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	if i.Date != "" {
		if t, err := time.Parse(time.RFC3339, i.Date); err == nil {
			i.Date = t.UTC().Format(time.RFC3339)
		}
	}
	return i
}

// String is "1.4.0 (abc1234, 2026-11-22T20:00:00Z)".
func (i Info) String() string {
	s := i.Version
	c := i.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	switch {
	case c != "" && i.Date != "":
		s += " (" + c + ", " + i.Date + ")"
	case c != "":
		s += " (" + c + ")"
	}
	return s
}

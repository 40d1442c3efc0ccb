package operations

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/wire"
)

// caller are the operations of the caller tag.
func caller() []Operation {
	return []Operation{
		{
			ID: "getVersion", Method: http.MethodGet, Path: "/version",
			Need:    NeedAnyone,
			Tags:    []string{"caller"},
			Summary: "The running build (no token needed).",
			Public:  true,
			Answers: []Answer{{Status: 200, Doc: "Version, commit, build date and Go version.", Of: wire.Version{}}},
		},
		{
			ID: "getMe", Method: http.MethodGet, Path: "/me",
			Need:    NeedAnyone,
			Tags:    []string{"caller"},
			Summary: "The caller, their business units with roles, and the stages.",
			Answers: []Answer{{Status: 200, Doc: "The caller.", Of: wire.Me{}}},
		},
	}
}

package cloud

import (
	"encoding/json"
	"net/http"

	"github.com/edh-platform/rms-portal/internal/platform"
)

type poolJSON struct {
	APIVersion    string      `json:"api_version"`
	Kind          string      `json:"kind"`
	ID            string      `json:"id"`
	Metadata      *objectMeta `json:"metadata,omitempty"`
	Principal     string      `json:"principal,omitempty"`
	DisplayName   string      `json:"display_name"`
	Description   string      `json:"description"`
	IdentityClaim string      `json:"identity_claim"`
	Filter        string      `json:"filter"`
	State         string      `json:"state,omitempty"`
}

// poolOut is a pool as identity providers v2 shows it: its principal is
// its own id (what role bindings name, "User:pool-...").
func poolOut(provider string, p platform.IdentityPool) poolJSON {
	return poolJSON{APIVersion: "iam/v2", Kind: "IdentityPool", ID: p.ID, DisplayName: p.DisplayName, Description: p.Description,
		IdentityClaim: p.IdentityClaim, Filter: p.Filter, State: p.State, Principal: p.ID,
		Metadata: &objectMeta{Self: cloudAPI + "/iam/v2/identity-providers/" + provider + "/identity-pools/" + p.ID,
			ResourceName: "crn://confluent.cloud/organization=" + devOrg + "/identity-provider=" + provider + "/identity-pool=" + p.ID}}
}

// poolRoutes serve an identity provider's pools (identity providers v2).
func (c *CloudAPI) poolRoutes(mux *http.ServeMux, base string) {
	of := func(r *http.Request) platform.IdentityPools { return c.org.PoolsFor(r.PathValue("provider")) }
	mux.HandleFunc("GET "+base, func(w http.ResponseWriter, r *http.Request) {
		all, _ := of(r).ListPools(r.Context())
		out := make([]poolJSON, len(all))
		for i, p := range all {
			out[i] = poolOut(r.PathValue("provider"), p)
		}
		writeJSON(w, http.StatusOK, page(r, "IdentityPoolList", out))
	})
	mux.HandleFunc("POST "+base, func(w http.ResponseWriter, r *http.Request) {
		var raw map[string]json.RawMessage
		if err := decodeBody(r, &raw); err != nil {
			writeFault(w, err)
			return
		}
		// The published document requires these four (description may be
		// empty, but must be sent).
		for _, field := range []string{"display_name", "description", "identity_claim", "filter"} {
			if _, ok := raw[field]; !ok {
				writeError(w, http.StatusBadRequest, field+" is required")
				return
			}
		}
		var in poolJSON
		b, _ := json.Marshal(raw)
		_ = json.Unmarshal(b, &in)
		p, err := of(r).CreatePool(r.Context(), platform.IdentityPool{DisplayName: in.DisplayName, Description: in.Description,
			IdentityClaim: in.IdentityClaim, Filter: in.Filter})
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, poolOut(r.PathValue("provider"), p))
	})
	mux.HandleFunc("GET "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) {
		p, err := of(r).GetPool(r.Context(), r.PathValue("id"))
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, poolOut(r.PathValue("provider"), p))
	})
	mux.HandleFunc("PATCH "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Filter *string `json:"filter"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		pools, id, ctx := of(r), r.PathValue("id"), r.Context()
		if in.Filter == nil {
			p, err := pools.GetPool(ctx, id)
			if err != nil {
				writeFault(w, err)
				return
			}
			writeJSON(w, http.StatusOK, poolOut(r.PathValue("provider"), p))
			return
		}
		p, err := pools.UpdatePoolFilter(ctx, id, *in.Filter)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, poolOut(r.PathValue("provider"), p))
	})
	mux.HandleFunc("DELETE "+base+"/{id}", func(w http.ResponseWriter, r *http.Request) {
		if err := of(r).DeletePool(r.Context(), r.PathValue("id")); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

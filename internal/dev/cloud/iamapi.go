package cloud

import (
	"net/http"

	"github.com/edh-platform/rms-portal/internal/platform"
)

type accountJSON struct {
	APIVersion  string     `json:"api_version"`
	Kind        string     `json:"kind"`
	ID          string     `json:"id"`
	Metadata    objectMeta `json:"metadata"`
	DisplayName string     `json:"display_name"`
	Description string     `json:"description"`
}

func accountOut(a platform.ServiceAccount) accountJSON {
	return accountJSON{APIVersion: "iam/v2", Kind: "ServiceAccount", ID: a.ID, DisplayName: a.DisplayName, Description: a.Description,
		Metadata: objectMeta{Self: cloudAPI + "/iam/v2/service-accounts/" + a.ID,
			ResourceName: "crn://confluent.cloud/organization=" + devOrg + "/service-account=" + a.ID}}
}

// iamRoutes serve IAM v2's service accounts and role bindings.
func (c *CloudAPI) iamRoutes(mux *http.ServeMux) {
	iam := c.org.IAMFor(platform.IAMScope{})
	mux.HandleFunc("GET /iam/v2/service-accounts", func(w http.ResponseWriter, r *http.Request) {
		all, _ := iam.ListServiceAccounts(r.Context())
		out := make([]accountJSON, len(all))
		for i, a := range all {
			out[i] = accountOut(a)
		}
		writeJSON(w, http.StatusOK, page(r, "ServiceAccountList", out))
	})
	mux.HandleFunc("POST /iam/v2/service-accounts", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			DisplayName string `json:"display_name"`
			Description string `json:"description"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		a, err := iam.CreateServiceAccount(r.Context(), in.DisplayName, in.Description)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, accountOut(a))
	})
	mux.HandleFunc("GET /iam/v2/service-accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		a, err := iam.GetServiceAccount(r.Context(), r.PathValue("id"))
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, accountOut(a))
	})
	mux.HandleFunc("PATCH /iam/v2/service-accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Description *string `json:"description"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		a, err := iam.GetServiceAccount(r.Context(), r.PathValue("id"))
		if err == nil && in.Description != nil {
			a, err = iam.UpdateServiceAccount(r.Context(), a.ID, *in.Description)
		}
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, accountOut(a))
	})
	mux.HandleFunc("DELETE /iam/v2/service-accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		if err := iam.DeleteServiceAccount(r.Context(), r.PathValue("id")); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	c.bindingRoutes(mux)
}

type bindingJSON struct {
	APIVersion string      `json:"api_version"`
	Kind       string      `json:"kind"`
	ID         string      `json:"id"`
	Metadata   *objectMeta `json:"metadata,omitempty"`
	Principal  string      `json:"principal"`
	RoleName   string      `json:"role_name"`
	CRNPattern string      `json:"crn_pattern"`
}

func bindingOut(id, principal, role, crn string) bindingJSON {
	return bindingJSON{APIVersion: "iam/v2", Kind: "RoleBinding", ID: id, Principal: principal, RoleName: role, CRNPattern: crn,
		Metadata: &objectMeta{Self: cloudAPI + "/iam/v2/role-bindings/" + id}}
}

func (c *CloudAPI) bindingRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /iam/v2/role-bindings", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("crn_pattern") == "" {
			writeError(w, http.StatusBadRequest, "crn_pattern is required")
			return
		}
		var out []bindingJSON
		for _, b := range c.org.Bindings(q.Get("principal"), q.Get("crn_pattern")) {
			out = append(out, bindingOut(b.ID, c.org.BindingPrincipal(b.ID), b.Role, b.CRN))
		}
		if role := q.Get("role_name"); role != "" {
			kept := out[:0]
			for _, b := range out {
				if b.RoleName == role {
					kept = append(kept, b)
				}
			}
			out = kept
		}
		writeJSON(w, http.StatusOK, page(r, "RoleBindingList", out))
	})
	mux.HandleFunc("POST /iam/v2/role-bindings", func(w http.ResponseWriter, r *http.Request) {
		var in bindingJSON
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		if in.Principal == "" || in.RoleName == "" || in.CRNPattern == "" {
			writeError(w, http.StatusBadRequest, "principal, role_name and crn_pattern are required")
			return
		}
		b, err := c.org.CreateBinding(r.Context(), in.Principal, in.RoleName, in.CRNPattern)
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, bindingOut(b.ID, in.Principal, b.Role, b.CRN))
	})
	// A delete answers 200 with the binding it removed, as the document
	// says.
	mux.HandleFunc("DELETE /iam/v2/role-bindings/{id}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		principal, role, crn, found := c.org.binding(id)
		if err := c.org.IAMFor(platform.IAMScope{}).DeleteRoleBinding(r.Context(), id); err != nil {
			writeFault(w, err)
			return
		}
		if !found {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		writeJSON(w, http.StatusOK, bindingOut(id, principal, role, crn))
	})
}

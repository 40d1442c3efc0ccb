package cloud

import (
	"net/http"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/platform"
)

// The shapes of IAM v2's /iam/v2/api-keys (ccloud-sdk-go-v2/apikeys,
// v2/api/openapi.yaml).
type (
	refJSON struct {
		ID           string `json:"id"`
		Environment  string `json:"environment,omitempty"`
		Related      string `json:"related"`
		ResourceName string `json:"resource_name"`
		APIVersion   string `json:"api_version,omitempty"`
		Kind         string `json:"kind,omitempty"`
	}
	keySpecJSON struct {
		Secret      string   `json:"secret,omitempty"`
		DisplayName string   `json:"display_name"`
		Description string   `json:"description"`
		Owner       refJSON  `json:"owner"`
		Resource    *refJSON `json:"resource"`
	}
	keyJSON struct {
		APIVersion string      `json:"api_version"`
		Kind       string      `json:"kind"`
		ID         string      `json:"id"`
		Metadata   objectMeta  `json:"metadata"`
		Spec       keySpecJSON `json:"spec"`
	}
)

const cloudAPI = "https://api.confluent.cloud"

func keyOut(k platform.APIKey, env string) keyJSON {
	created := k.Created.UTC().Format(time.RFC3339)
	out := keyJSON{APIVersion: "iam/v2", Kind: "ApiKey", ID: k.ID,
		Metadata: objectMeta{Self: cloudAPI + "/iam/v2/api-keys/" + k.ID, ResourceName: "crn://confluent.cloud/organization=" + devOrg + "/api-key=" + k.ID,
			CreatedAt: created, UpdatedAt: created},
		Spec: keySpecJSON{Secret: k.Secret, DisplayName: k.DisplayName, Description: k.Description,
			Owner: refJSON{ID: k.Owner, Related: cloudAPI + "/iam/v2/service-accounts/" + k.Owner,
				ResourceName: "crn://confluent.cloud/organization=" + devOrg + "/service-account=" + k.Owner, APIVersion: "iam/v2", Kind: "ServiceAccount"}}}
	if k.Resource != "" {
		r := &refJSON{ID: k.Resource, Environment: env, APIVersion: "cmk/v2", Kind: "Cluster",
			Related:      cloudAPI + "/cmk/v2/clusters/" + k.Resource + "?environment=" + env,
			ResourceName: "crn://confluent.cloud/organization=" + devOrg + "/environment=" + env + "/cloud-cluster=" + k.Resource}
		if strings.HasPrefix(k.Resource, "lsrc-") {
			r.APIVersion, r.Kind = "srcm/v2", "Cluster"
			r.Related = cloudAPI + "/srcm/v2/clusters/" + k.Resource + "?environment=" + env
			r.ResourceName = "crn://confluent.cloud/organization=" + devOrg + "/environment=" + env + "/schema-registry=" + k.Resource
		}
		out.Spec.Resource = r
	}
	return out
}

// devOrg is the organization's id in the stand-in's resource names.
const devOrg = "org-dev"

// apiKeyRoutes serve /iam/v2/api-keys.
func (c *CloudAPI) apiKeyRoutes(mux *http.ServeMux) {
	keys := c.org.APIKeys()
	mux.HandleFunc("GET /iam/v2/api-keys", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		all, _ := keys.ListAPIKeys(r.Context(), q.Get("spec.owner"), q.Get("spec.resource"))
		out := make([]keyJSON, len(all))
		for i, k := range all {
			out[i] = keyOut(k, c.org.keyEnvironment(k.ID))
		}
		body := page(r, "ApiKeyList", out)
		body["metadata"].(map[string]any)["total_size"] = len(out)
		writeJSON(w, http.StatusOK, body)
	})
	mux.HandleFunc("POST /iam/v2/api-keys", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Spec struct {
				DisplayName string `json:"display_name"`
				Description string `json:"description"`
				Owner       *struct {
					ID string `json:"id"`
				} `json:"owner"`
				Resource *struct {
					ID          string `json:"id"`
					Environment string `json:"environment"`
				} `json:"resource"`
			} `json:"spec"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		if in.Spec.Owner == nil || in.Spec.Resource == nil {
			writeError(w, http.StatusBadRequest, "spec.owner and spec.resource are required")
			return
		}
		k, err := keys.CreateAPIKey(r.Context(), platform.NewAPIKey{Owner: in.Spec.Owner.ID, Resource: in.Spec.Resource.ID,
			Environment: in.Spec.Resource.Environment, DisplayName: in.Spec.DisplayName, Description: in.Spec.Description})
		if err != nil {
			writeFault(w, err)
			return
		}
		c.org.setKeyEnvironment(k.ID, in.Spec.Resource.Environment)
		w.Header().Set("Location", cloudAPI+"/iam/v2/api-keys/"+k.ID)
		writeJSON(w, http.StatusAccepted, keyOut(k, in.Spec.Resource.Environment))
	})
	mux.HandleFunc("GET /iam/v2/api-keys/{id}", func(w http.ResponseWriter, r *http.Request) {
		k, err := keys.GetAPIKey(r.Context(), r.PathValue("id"))
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, keyOut(k, c.org.keyEnvironment(k.ID)))
	})
	mux.HandleFunc("PATCH /iam/v2/api-keys/{id}", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Spec struct {
				Description *string `json:"description"`
			} `json:"spec"`
		}
		if err := decodeBody(r, &in); err != nil {
			writeFault(w, err)
			return
		}
		cur, err := keys.GetAPIKey(r.Context(), r.PathValue("id"))
		if err == nil && in.Spec.Description != nil {
			cur, err = keys.UpdateAPIKey(r.Context(), cur.ID, *in.Spec.Description)
		}
		if err != nil {
			writeFault(w, err)
			return
		}
		writeJSON(w, http.StatusOK, keyOut(cur, c.org.keyEnvironment(cur.ID)))
	})
	mux.HandleFunc("DELETE /iam/v2/api-keys/{id}", func(w http.ResponseWriter, r *http.Request) {
		if err := keys.DeleteAPIKey(r.Context(), r.PathValue("id")); err != nil {
			writeFault(w, err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// keyEnvironment is the environment a key's resource was named in.
func (o *Org) keyEnvironment(id string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.keyEnvs[id]
}

func (o *Org) setKeyEnvironment(id, env string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.keyEnvs == nil {
		o.keyEnvs = map[string]string{}
	}
	o.keyEnvs[id] = env
}

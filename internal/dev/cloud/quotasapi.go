package cloud

import (
	"net/http"
	"strings"
)

// devPartitionLimit is what the stand-in applies to each cluster: the
// partition limit of Confluent Cloud's Basic and Standard clusters.
const devPartitionLimit = 4096

// quotasRoutes serve the Service Quotas API v1's applied quotas, as its
// published document (ccloud-sdk-go-v2/service-quota v0.2.0) shapes
// them, for the clusters the stand-in serves: their partition limit.
func (c *CloudAPI) quotasRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /service-quota/v1/applied-quotas", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if q.Get("scope") == "" {
			writeError(w, http.StatusBadRequest, "scope is required")
			return
		}
		// References carry related and resource_name, as the document
		// requires of every object reference.
		type ref struct {
			ID           string `json:"id"`
			Related      string `json:"related"`
			ResourceName string `json:"resource_name"`
		}
		type quota struct {
			APIVersion   string     `json:"api_version"`
			Kind         string     `json:"kind"`
			ID           string     `json:"id"`
			Metadata     objectMeta `json:"metadata"`
			Scope        string     `json:"scope"`
			DisplayName  string     `json:"display_name"`
			DefaultLimit int64      `json:"default_limit"`
			AppliedLimit int64      `json:"applied_limit"`
			Environment  *ref       `json:"environment"`
			KafkaCluster *ref       `json:"kafka_cluster"`
		}
		data := []quota{}
		if strings.EqualFold(q.Get("scope"), "KAFKA_CLUSTER") && (q.Get("id") == "" || q.Get("id") == "kafka.max_partitions.per_cluster") {
			c.mu.Lock()
			for key := range c.clusters {
				env, cluster, _ := strings.Cut(key, "/")
				if (q.Get("kafka_cluster") != "" && q.Get("kafka_cluster") != cluster) || (q.Get("environment") != "" && q.Get("environment") != env) {
					continue
				}
				crn := "crn://confluent.cloud/organization=" + devOrg + "/environment=" + env
				data = append(data, quota{APIVersion: "service-quota/v1", Kind: "AppliedQuota", ID: "kafka.max_partitions.per_cluster", Scope: "KAFKA_CLUSTER",
					Metadata:    objectMeta{Self: cloudAPI + "/service-quota/v1/applied-quotas/kafka.max_partitions.per_cluster?kafka_cluster=" + cluster},
					DisplayName: "Partitions per Kafka cluster", DefaultLimit: devPartitionLimit, AppliedLimit: devPartitionLimit,
					Environment:  &ref{ID: env, Related: cloudAPI + "/org/v2/environments/" + env, ResourceName: crn},
					KafkaCluster: &ref{ID: cluster, Related: cloudAPI + "/cmk/v2/clusters/" + cluster + "?environment=" + env, ResourceName: crn + "/cloud-cluster=" + cluster}})
			}
			c.mu.Unlock()
		}
		writeJSON(w, http.StatusOK, map[string]any{"api_version": "service-quota/v1", "kind": "AppliedQuotaList",
			"metadata": map[string]any{"next": ""}, "data": data})
	})
}

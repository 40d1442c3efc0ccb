package confluent

import (
	"context"
	"net/http"
	"net/url"
)

// PartitionQuota is the Service Quotas API's code for a cluster's
// partition limit.
const PartitionQuota = "kafka.max_partitions.per_cluster"

// Quotas reads Confluent Cloud's Service Quotas API v1
// (/service-quota/v1/applied-quotas).
type Quotas struct{ c *Client }

// NewQuotas returns the adapter.
func NewQuotas(c *Client) Quotas { return Quotas{c: c} }

// ClusterPartitionLimit is the partition limit applied to a cluster
// (with its adjustments); 0 when the API has none for it.
func (q Quotas) ClusterPartitionLimit(ctx context.Context, environmentID, clusterID string) (int64, error) {
	query := url.Values{"scope": {"KAFKA_CLUSTER"}, "kafka_cluster": {clusterID}, "id": {PartitionQuota}}
	if environmentID != "" {
		query.Set("environment", environmentID)
	}
	var page struct {
		Data []struct {
			ID           string `json:"id"`
			AppliedLimit int64  `json:"applied_limit"`
			KafkaCluster *struct {
				ID string `json:"id"`
			} `json:"kafka_cluster"`
		} `json:"data"`
	}
	if err := q.c.do(ctx, call{method: http.MethodGet, path: "/service-quota/v1/applied-quotas", query: query, out: &page, safe: true}); err != nil {
		return 0, err
	}
	for _, d := range page.Data {
		if d.ID == PartitionQuota && (d.KafkaCluster == nil || d.KafkaCluster.ID == clusterID) {
			return d.AppliedLimit, nil
		}
	}
	return 0, nil
}

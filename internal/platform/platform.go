// Package platform declares the ports through which services reach the
// streaming platform, and the registry of environments (one landing zone in
// one stage) that serve them. Adapters in sub-packages implement the ports;
// cmd wires them.
package platform

import (
	"context"
	"fmt"
	"sort"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// TopicInfo is a topic as a list shows it.
type TopicInfo struct {
	Name       string
	Partitions int
	Internal   bool
}

// PartitionInfo describes one partition's placement.
type PartitionInfo struct {
	ID       int
	Leader   int
	Replicas []int
	ISR      []int
}

// ConfigEntry is one topic setting as the cluster reports it.
type ConfigEntry struct {
	Name  string
	Value string
	// Override is true when the value is set on the topic itself rather
	// than inherited from the broker or Kafka's defaults.
	Override  bool
	Sensitive bool
	ReadOnly  bool
	// Source is where the value comes from, as the cluster names it.
	Source string
}

// TopicDetail is a topic with its partitions and every setting.
type TopicDetail struct {
	Name       string
	Internal   bool
	Partitions []PartitionInfo
	Config     []ConfigEntry
}

// TopicSpec is a topic to create.
type TopicSpec struct {
	Name       string
	Partitions int
	Config     map[string]string
}

// ConfigChange sets some settings and resets others to their defaults.
type ConfigChange struct {
	Set   map[string]string
	Reset []string
}

// Empty reports whether the change does nothing.
func (c ConfigChange) Empty() bool { return len(c.Set) == 0 && len(c.Reset) == 0 }

// PartitionOffsets are the earliest and latest offsets of one partition.
type PartitionOffsets struct {
	Partition int
	Earliest  int64
	Latest    int64
}

// ClusterInfo summarises a cluster.
type ClusterInfo struct {
	ID      string
	Brokers int
}

// Topics is the port to a Kafka cluster's topic administration. Errors are
// fault errors: NotFound, AlreadyExists, InvalidParameter, and
// UpstreamUnavailable or UpstreamTimeout when the cluster cannot be reached.
type Topics interface {
	// ListTopics returns every topic of the cluster sorted by name, from
	// one metadata request (possibly cached). The list is shared and never
	// modified: a changed list is a new slice.
	ListTopics(ctx context.Context) ([]TopicInfo, error)
	DescribeTopic(ctx context.Context, name string) (TopicDetail, error)
	CreateTopic(ctx context.Context, spec TopicSpec) error
	// CreateTopics creates many topics in one request; the answer has each
	// topic's error (nil when made), the call's error a failure of all.
	CreateTopics(ctx context.Context, specs []TopicSpec) ([]error, error)
	AlterTopicConfig(ctx context.Context, name string, change ConfigChange) error
	CreatePartitions(ctx context.Context, name string, total int) error
	DeleteTopic(ctx context.Context, name string) error
	TopicOffsets(ctx context.Context, name string, partitions int) ([]PartitionOffsets, error)
	// TopicConfigs returns the settings of many topics from one request
	// (a topic that does not exist is left out).
	TopicConfigs(ctx context.Context, names []string) (map[string][]ConfigEntry, error)
	// DescribeTopics describes many topics: their partitions from one
	// request, their settings from another (a topic that does not exist
	// is left out).
	DescribeTopics(ctx context.Context, names []string) (map[string]TopicDetail, error)
	// AlterTopicConfigs changes the settings of many topics in one
	// request; the answer has each topic's error by name (nil when
	// changed), the call's error a failure of all.
	AlterTopicConfigs(ctx context.Context, changes map[string]ConfigChange) (map[string]error, error)
	// AddPartitions raises the partition counts of many topics (to the
	// totals given) in one request, answered as AlterTopicConfigs is.
	AddPartitions(ctx context.Context, totals map[string]int) (map[string]error, error)
	ClusterInfo(ctx context.Context) (ClusterInfo, error)
}

// CacheObserver is told about each lookup in an adapter's cache, for
// metrics; cache names the cache ("topics", "service-accounts").
type CacheObserver func(cache string, hit bool)

// Forgetter is a port with a cache that another replica's write can make
// stale; Forget drops it (or, for a cache that must stay warm, has it
// refetched in the background).
type Forgetter interface {
	Forget()
}

// TopicChange is one write to a cluster's topic list: a topic created
// (or given more partitions) with its partition count, or deleted.
type TopicChange struct {
	Name       string
	Partitions int
	Deleted    bool
}

// TopicPatcher is a Topics port whose cached list takes writes in place,
// so that the next list after a write is not a cold one.
type TopicPatcher interface {
	ApplyTopicChange(c TopicChange)
}

// Environment is the set of upstream services of one landing zone in one
// stage.
type Environment struct {
	Zone     string
	Stage    string
	Topics   Topics
	Groups   Groups
	Messages Messages
	// Metrics is the Confluent Cloud Metrics API, with ClusterID the
	// cluster's id there (lkc-...).
	Metrics    CloudMetrics
	ClusterID  string
	Connectors Connectors
	Schemas    Schemas
	IAM        IAM
	Pools      IdentityPools
	// APIKeys are the organisation's API keys; Scope names the stage's
	// cluster and registry (the resources of its keys), Access how a
	// client reaches them.
	APIKeys APIKeys
	Scope   IAMScope
	Access  ClientAccess
	// KeyCheck signs in with a new key to tell when it is usable.
	KeyCheck KeyCheck
}

// Name identifies the environment in logs and health reports.
func (e *Environment) Name() string { return e.Key().String() }

// Key is the environment's zone and stage, which registries key by.
func (e *Environment) Key() portal.ZoneStage { return portal.ZoneStage{Zone: e.Zone, Stage: e.Stage} }

// Environments is the registry of environments, built once at start.
type Environments struct {
	byKey map[portal.ZoneStage]*Environment
}

// NewEnvironments returns an empty registry.
func NewEnvironments() *Environments {
	return &Environments{byKey: map[portal.ZoneStage]*Environment{}}
}

// Add registers an environment.
func (e *Environments) Add(env *Environment) { e.byKey[env.Key()] = env }

// Get returns the environment of a landing zone in a stage.
func (e *Environments) Get(zone, stage string) (*Environment, error) {
	env, ok := e.byKey[portal.ZoneStage{Zone: zone, Stage: stage}]
	if !ok {
		return nil, fmt.Errorf("no environment configured for %s/%s", zone, stage)
	}
	return env, nil
}

// All returns every environment, sorted by name.
func (e *Environments) All() []*Environment {
	out := make([]*Environment, 0, len(e.byKey))
	for _, env := range e.byKey {
		out = append(out, env)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

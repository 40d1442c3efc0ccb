package dev

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/config"
)

// ServeConfig is a production configuration whose platform is this dev
// instance (cfg, as Start rewrote it): its identity provider, clusters,
// Cloud stand-in and registries, with the dev secrets inline and a new
// session key for every replica to share. It is the configuration type,
// marshalled, without the keys that keep their defaults; it loads as a
// serve configuration given a database.
func ServeConfig(cfg *config.Config) ([]byte, error) {
	raw, err := yaml.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	var c config.Config
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	c.Mode, c.Listen, c.BaseURL, c.DevIDP = config.ModeProduction, ":8081", "http://127.0.0.1:8081", nil
	c.Session.Keys = []string{hex.EncodeToString(key)}
	c.Database.URL = ""
	var doc yaml.Node
	if err := doc.Encode(&c); err != nil {
		return nil, err
	}
	prune(&doc)
	var out bytes.Buffer
	fmt.Fprintf(&out, "# A serve configuration that uses the dev instance at %s as its platform.\n", cfg.BaseURL)
	out.WriteString("# Written by: portal dev --write-serve-config. Run replicas with\n")
	out.WriteString("#   DATABASE_URL=postgres://... PORT=8081 BASE_URL=http://127.0.0.1:8081 portal serve --config FILE\n")
	out.WriteString("# Every replica needs the same session.keys.\n")
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if _, err := config.Parse(out.Bytes(), "the serve configuration", func(k string) string {
		if k == "DATABASE_URL" {
			return "postgres://check@localhost/check"
		}
		return ""
	}); err != nil {
		return nil, fmt.Errorf("the serve configuration would not load: %w", err)
	}
	return out.Bytes(), nil
}

// prune drops the keys whose values are empty (zero values the loader
// fills in with its defaults), so that the file holds what matters.
func prune(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Value == "" || n.Value == "false" || n.Value == "0" || n.Value == "0s" || n.Tag == "!!null"
	case yaml.SequenceNode:
		kept := n.Content[:0]
		for _, c := range n.Content {
			if !prune(c) || c.Kind == yaml.ScalarNode {
				kept = append(kept, c)
			}
		}
		n.Content = kept
		return len(n.Content) == 0
	case yaml.MappingNode:
		kept := n.Content[:0]
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !prune(n.Content[i+1]) {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
		return len(n.Content) == 0
	case yaml.DocumentNode:
		for _, c := range n.Content {
			prune(c)
		}
	}
	return false
}

package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/edh-platform/rms-portal/internal/wire"
	"github.com/spf13/cobra"
)

// keyFlags are how a secret is handed over: into a file, a directory
// (one file per key), or the standard output.
type keyFlags struct {
	file, dir string
}

func (f *keyFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.file, "output-file", "", "write the secret to this file (mode 0600) instead of the standard output: "+
		"client properties, or environment variables for a name ending in .env, or the whole answer for .json")
}

func createCmd(o *options) *cobra.Command {
	cmd := &cobra.Command{Use: "create", Short: "Create a resource that hands out a secret once (api-key)"}
	var (
		resource, description, expires string
		f                              keyFlags
	)
	key := &cobra.Command{
		Use:   "api-key ACCOUNT",
		Short: "Create an API key for a service account (its id, sa-...); the secret is shown once",
		Long: "Create an API key for one of the unit's service accounts, for the stage's Kafka cluster (--resource kafka) or its " +
			"Schema Registry (--resource schema-registry). The secret is printed once, or written to --output-file with mode 0600: " +
			"the portal never shows it again.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			in := wire.APIKeyCreate{Resource: resource, Description: description}
			if expires != "" {
				at, err := expiryFlag(expires, time.Now())
				if err != nil {
					return err
				}
				in.Expires = &at
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			k, _, err := c.CreateAPIKey(cmd.Context(), bu, stage, args[0], in)
			if err != nil {
				return err
			}
			return o.handOver(k, f)
		},
	}
	key.Flags().StringVar(&resource, "resource", "kafka", "kafka or schema-registry")
	key.Flags().StringVar(&description, "description", "", "what the key is for")
	key.Flags().StringVar(&expires, "expires", "", "when the key expires: a time (RFC 3339) or a span from now (30d, 36h); at most the stage's maximum key age")
	f.add(key)
	cmd.AddCommand(key)
	return cmd
}

func rotateCmd(o *options) *cobra.Command {
	cmd := &cobra.Command{Use: "rotate", Short: "Replace a credential without downtime (api-key)"}
	var (
		overlap string
		f       keyFlags
	)
	key := &cobra.Command{
		Use:   "api-key KEY",
		Short: "Make a new key in place of KEY; KEY keeps working for --overlap, then the portal deletes it",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			k, _, err := c.RotateAPIKey(cmd.Context(), bu, stage, args[0], wire.APIKeyRotate{Overlap: overlap})
			if err != nil {
				return err
			}
			return o.handOver(k, f)
		},
	}
	key.Flags().StringVar(&overlap, "overlap", "24h", "how long the old key keeps working: days (1d) or a duration (36h)")
	f.add(key)
	cmd.AddCommand(key)
	return cmd
}

// expiryFlag reads an expiry as a time or as a span from now.
func expiryFlag(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		var days int
		if _, err := fmt.Sscanf(n, "%d", &days); err == nil && days > 0 {
			return now.Add(time.Duration(days) * 24 * time.Hour), nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return now.Add(d), nil
	}
	return time.Time{}, fmt.Errorf("--expires %q: give a time (2027-01-31T00:00:00Z) or a span from now (30d, 36h)", s)
}

// handOver prints a new key, and its secret once: to the standard output,
// or into a file only its owner may read.
func (o *options) handOver(k wire.CreatedAPIKey, f keyFlags) error {
	if k.Secret == "" {
		return errors.New("the portal's answer carries no key")
	}
	raw, err := json.Marshal(k)
	if err != nil {
		return err
	}
	raw = append(raw, '\n')
	expiry := "never expires"
	if k.Expires != nil {
		expiry = "expires " + *k.Expires
	}
	if o.output == "json" && f.file == "" {
		_, err := o.stdout.Write(append(raw, '\n'))
		return err
	}
	fmt.Fprintf(o.stdout, "API key %s of %s (%s) for %s, %s.\n", k.ID, k.Owner.Name, k.Owner.ID, k.Resource, expiry)
	if k.State == "provisioning" {
		fmt.Fprintf(o.stdout, "Not usable yet: Confluent Cloud takes up to about two minutes to spread a new key "+
			"(`portalctl get api-key %s` says ready once it signs in).\n", k.ID)
	}
	if f.dir != "" {
		if err := os.MkdirAll(f.dir, 0o700); err != nil {
			return err
		}
		f.file = filepath.Join(f.dir, k.ID+".properties")
	}
	if f.file == "" {
		fmt.Fprintf(o.stdout, "Secret: %s\nThis is the only time the secret is shown: keep it now.\n\n%s", k.Secret, k.ClientConfig["properties"])
		return nil
	}
	content := []byte(k.ClientConfig["properties"])
	switch strings.ToLower(filepath.Ext(f.file)) {
	case ".env":
		content = []byte(k.ClientConfig["env"])
	case ".json":
		content = raw
	}
	if err := writeSecret(f.file, content); err != nil {
		return fmt.Errorf("the key %s was made, but its secret could not be written (%w); delete the key and make another", k.ID, err)
	}
	fmt.Fprintf(o.stdout, "The secret is in %s (mode 0600); the portal will not show it again.\n", f.file)
	return nil
}

// writeSecret writes a file that only its owner may read, also when it
// existed with a wider mode (narrowed before anything is written).
func writeSecret(path string, content []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := fh.Chmod(0o600); err != nil {
		fh.Close()
		return err
	}
	if _, err := fh.Write(content); err != nil {
		fh.Close()
		return err
	}
	return fh.Close()
}

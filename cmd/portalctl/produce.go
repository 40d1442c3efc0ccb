package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/internal/wire"
)

func produceCmd(o *options) *cobra.Command {
	var (
		key, value, file, format, subject, version string
		headers                                    []string
		partition                                  int
	)
	cmd := &cobra.Command{
		Use:   "produce TOPIC",
		Short: "Write records to a topic: one from --key/--value, or JSON lines from --file (- for the standard input)",
		Long: "Write records to one of the unit's topics. Each JSON line of --file is a record: {\"key\": ..., \"value\": ..., " +
			"\"headers\": [{\"key\": ..., \"value\": ...}], \"partition\": N}. --format says how values are written: text (a string), " +
			"json (any JSON value), or schema (any JSON value, serialized with --subject's schema, Avro or JSON Schema; the " +
			"topic's -value subject by default). Every record is checked before the first is written. Exits 1 unless every " +
			"record was written.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			in := wire.Produce{ValueFormat: format, Subject: subject}
			if version != "" {
				in.Version, _ = json.Marshal(version)
			}
			if file != "" {
				recs, err := readRecordLines(file, o.stdin)
				if err != nil {
					return err
				}
				in.Records = recs
			} else {
				rec, err := oneRecord(cmd, key, value, format, headers, partition)
				if err != nil {
					return err
				}
				raw, _ := json.Marshal(rec)
				in.Records = []json.RawMessage{raw}
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			a, _, err := c.ProduceRecords(cmd.Context(), bu, stage, args[0], in)
			if err != nil {
				return err
			}
			if o.output == "json" {
				_ = o.printJSON(a)
			} else {
				for i, r := range a.Records {
					if r.Error != "" {
						fmt.Fprintf(o.stdout, "record %d: not written: %s\n", i+1, r.Error)
						continue
					}
					fmt.Fprintf(o.stdout, "record %d: partition %d offset %d (%d bytes)\n", i+1, r.Partition, *r.Offset, r.Size)
				}
				fmt.Fprintf(o.stdout, "%d of %d record(s) written to %s\n", a.Written, len(a.Records), a.Topic)
			}
			if a.Written != len(a.Records) {
				return fmt.Errorf("%d of %d record(s) were not written", len(a.Records)-a.Written, len(a.Records))
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&key, "key", "", "the record's key (none when not given)")
	cmd.Flags().StringVar(&value, "value", "", "the record's value (a tombstone when not given)")
	cmd.Flags().StringVar(&file, "file", "", "JSON lines of records to write, - for the standard input (up to 1 MiB)")
	cmd.Flags().StringVar(&format, "format", "text", "how values are written: text, json or schema")
	cmd.Flags().StringVar(&subject, "subject", "", "the subject whose schema writes the values (--format schema)")
	cmd.Flags().StringVar(&version, "schema-version", "", "the subject's version (default: latest)")
	cmd.Flags().StringArrayVar(&headers, "header", nil, "a header as name=value (repeatable)")
	cmd.Flags().IntVar(&partition, "partition", -1, "the partition (default: by key)")
	return cmd
}

// oneRecord is the record of the flags: the value as a JSON string for
// text, as the JSON it holds otherwise.
func oneRecord(cmd *cobra.Command, key, value, format string, headers []string, partition int) (map[string]any, error) {
	rec := map[string]any{}
	if cmd.Flags().Changed("key") {
		rec["key"] = key
	}
	rec["value"] = nil // a tombstone unless --value is given
	if cmd.Flags().Changed("value") {
		if format == "text" {
			rec["value"] = value
		} else if !json.Valid([]byte(value)) {
			return nil, fmt.Errorf("--value is not JSON; with --format %s the value is a JSON value", format)
		} else {
			rec["value"] = json.RawMessage(value)
		}
	}
	if partition >= 0 {
		rec["partition"] = partition
	}
	var hs []map[string]string
	for _, h := range headers {
		k, v, ok := strings.Cut(h, "=")
		if !ok || k == "" {
			return nil, fmt.Errorf("--header %q: write it as name=value", h)
		}
		hs = append(hs, map[string]string{"key": k, "value": v})
	}
	if hs != nil {
		rec["headers"] = hs
	}
	return rec, nil
}

// readRecordLines reads JSON lines (each a record as the API takes it).
func readRecordLines(file string, stdin io.Reader) ([]json.RawMessage, error) {
	var r io.Reader = stdin
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, 1<<20+1))
	if err != nil {
		return nil, err
	}
	if len(data) > 1<<20 {
		return nil, fmt.Errorf("%s holds more than 1 MiB; split it", file)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20+1)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if !json.Valid(line) || line[0] != '{' {
			return nil, fmt.Errorf("%s line %d is not a JSON object", file, n)
		}
		out = append(out, json.RawMessage(line))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no records", file)
	}
	return out, sc.Err()
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/portal"
)

// resourceType is how the API names a type and what a table shows.
type resourceType struct {
	list, one string
	columns   []string
}

// resourceTypes are the kinds portalctl lists (those with table
// columns), from the kinds' declaration, and the zone's catalog.
var resourceTypes = func() map[string]resourceType {
	out := map[string]resourceType{
		// The zone's catalog: get catalog --where tag=pii, describe catalog TOPIC.
		"catalog": {"catalog", "catalog", []string{"topic", "owner", "classification", "tags", "description"}},
	}
	for _, k := range portal.KindInfos() {
		if len(k.Columns) == 0 {
			continue
		}
		one := ""
		if k.Readable {
			one = k.Item
		}
		out[k.Plural] = resourceType{k.Plural, one, k.Columns}
	}
	return out
}()

// lookupType accepts a type's plural, singular or short name.
func lookupType(name string) (resourceType, bool) {
	if name == "topic-catalog" {
		name = "catalog"
	}
	if k, ok := portal.KindNamed(name); ok {
		name = k.Plural
	}
	t, ok := resourceTypes[name]
	return t, ok
}

func typeNames() string {
	names := make([]string, 0, len(resourceTypes))
	for n := range resourceTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// getCmd is get (a table by default) or describe (YAML by default).
func getCmd(o *options, describe bool) *cobra.Command {
	use, short := "get TYPE [NAME]", "List resources of a type, or show one"
	if describe {
		use, short = "describe TYPE NAME", "Show one resource in full"
	}
	var where []string
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  short + ". Types: " + typeNames() + "; and the reports usage and costs (--where from=, to=, granularity=, group_by=).",
		Args:  cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			if _, ok := reports[args[0]]; ok && !describe && len(args) == 1 {
				format := o.output
				if format == "" {
					format = "table"
				}
				return o.getReport(cmd.Context(), args[0], bu, stage, format, where)
			}
			t, ok := lookupType(args[0])
			if !ok {
				return fmt.Errorf("unknown type %q; the types are %s", args[0], typeNames())
			}
			format := o.output
			if format == "" {
				format = "table"
				if describe {
					format = "yaml"
				}
			}
			if len(args) == 2 && t.one == "" {
				return fmt.Errorf("%s are listed, not shown one by one: portalctl get %s", t.list, t.list)
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			if len(args) == 2 {
				v, err := reads[t.list].one(cmd.Context(), c, bu, stage, args[1])
				if err != nil {
					return err
				}
				item, err := shown(v)
				if err != nil {
					return err
				}
				return write(o.stdout, format, item, []map[string]any{item}, t.columns)
			}
			if describe {
				return fmt.Errorf("describe needs a name: portalctl describe %s NAME", args[0])
			}
			params := map[string]string{}
			for _, w := range where {
				k, v, ok := strings.Cut(w, "=")
				if !ok {
					return fmt.Errorf("--where takes key=value (search=, tag=, field=, owner=, classification=, state=, side=), not %q", w)
				}
				params[k] = v
			}
			var items []map[string]any
			token := ""
			for {
				page, next, err := reads[t.list].list(cmd.Context(), c, bu, stage, params, token)
				if err != nil {
					return err
				}
				rows, err := shownItems(page)
				if err != nil {
					return err
				}
				items = append(items, rows...)
				if token = next; token == "" {
					break
				}
			}
			return write(o.stdout, format, map[string]any{"items": items}, items, t.columns)
		},
	}
	if !describe {
		cmd.Flags().StringArrayVar(&where, "where", nil, "keep what a list query finds: key=value, repeatable (catalog: search, tag, field, owner, classification)")
	}
	return cmd
}

// write prints v as JSON or YAML, or rows as a table of columns.
func write(w io.Writer, format string, v any, rows []map[string]any, columns []string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case "yaml":
		enc := yaml.NewEncoder(w)
		enc.SetIndent(2)
		return enc.Encode(v)
	case "table":
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.ToUpper(strings.Join(columns, "\t")))
		for _, r := range rows {
			cells := make([]string, len(columns))
			for i, c := range columns {
				if x := field(r, c); x != nil {
					cells[i] = fmt.Sprint(x)
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		return tw.Flush()
	}
	return fmt.Errorf("unknown output format %q: use table, json or yaml", format)
}

// field reads a column of a row; "a.b" is field b of the object in a.
func field(r map[string]any, column string) any {
	head, rest, nested := strings.Cut(column, ".")
	x := r[head]
	if !nested {
		return x
	}
	if m, ok := x.(map[string]any); ok {
		return field(m, rest)
	}
	return nil
}

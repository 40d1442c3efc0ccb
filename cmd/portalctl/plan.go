package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/document"
	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
	"github.com/edh-platform/rms-portal/internal/wire"
)

// plan is the API's plan, and after an apply each change's outcome.
type plan struct {
	wire.Plan
}

// itemText is an error item for people.
func itemText(i wire.ErrorItem) string {
	if i.Field != "" {
		return i.Type + " " + i.Field + ": " + i.Message
	}
	return i.Type + ": " + i.Message
}

// docFlags are the flags of commands that send a document.
type docFlags struct {
	files      []string
	prune, yes bool
	// kinds narrow the document to these kinds; skipForbidden plans the
	// changes the caller's role may not make as skipped.
	kinds            []string
	skipForbidden    bool
	detailedExitCode bool
	// credentials is where an apply writes the secrets of keys it makes.
	credentials string
}

// readDoc reads the document's files and directories into one, with
// schema files and secrets from the environment resolved as only the
// client can.
func (o *options) readDoc(paths, kinds []string) ([]byte, error) {
	if len(paths) == 0 {
		return nil, errors.New("give the document: -f FILE or -f DIRECTORY (repeatable)")
	}
	doc, missing, err := document.ReadFiles(paths, o.getenv)
	if ps := portal.Problems(err); len(ps) > 0 {
		for _, p := range ps {
			fmt.Fprintf(o.stderr, "  %s %s: %s\n", p.Kind, p.Field, p.Message)
		}
		return nil, errors.New("the document is not valid; nothing was sent")
	} else if err != nil {
		return nil, err
	}
	if doc, err = onlyKinds(doc, kinds); err != nil {
		return nil, err
	}
	return o.encodeDoc(doc, missing)
}

// onlyKinds keeps the resources of the kinds given (all without any):
// any of a documented kind's names (Topic, topics, identity-pool, pool), in any
// case.
func onlyKinds(doc ascode.Document, kinds []string) (ascode.Document, error) {
	if len(kinds) == 0 {
		return doc, nil
	}
	keep := map[string]bool{}
	for _, k := range kinds {
		known, ok := portal.KindNamed(k)
		if !ok || known.Document == "" {
			return doc, fmt.Errorf("--kind %q: give one of %s", k, strings.Join(portal.ResourceKinds(), ", "))
		}
		keep[known.Document] = true
	}
	out := doc
	out.Resources = nil
	for _, r := range doc.Resources {
		if keep[r.Kind] {
			out.Resources = append(out.Resources, r)
		}
	}
	return out, nil
}

func (o *options) encodeDoc(doc ascode.Document, missing []string) ([]byte, error) {
	slices.Sort(missing)
	for _, m := range slices.Compact(missing) {
		fmt.Fprintf(o.stderr, "Warning: $%s is not set; a connector created with it will be refused\n", m)
	}
	return document.JSON(doc, true)
}

func (o *options) plan(ctx context.Context, bu, stage string, body []byte, f docFlags) (*plan, error) {
	doc, err := wireDoc(body)
	if err != nil {
		return nil, err
	}
	c, err := o.api(ctx)
	if err != nil {
		return nil, err
	}
	p, _, err := c.PlanResources(ctx, bu, stage, doc, &client.PlanResourcesParams{Prune: f.prune, SkipForbidden: f.skipForbidden})
	if err != nil {
		return nil, err
	}
	return &plan{p}, nil
}

// wireDoc is a document as the API takes it.
func wireDoc(body []byte) (wire.ResourceDocument, error) {
	var doc wire.ResourceDocument
	err := json.Unmarshal(body, &doc)
	return doc, err
}

// show prints a plan (or an apply's outcomes) for people, or as JSON.
func (o *options) show(p *plan) {
	if o.output == "json" {
		raw, _ := json.Marshal(p.Plan)
		o.stdout.Write(append(raw, '\n'))
		fmt.Fprintln(o.stdout)
		return
	}
	w := o.stdout
	fmt.Fprintf(w, "%s/%s (plan %s)\n", p.BusinessUnit, p.Stage, short(p.Fingerprint))
	signs := map[string]string{"create": "+", "update": "~", "delete": "-", "unchanged": "=", "refused": "!", "skipped": "/"}
	for _, c := range p.Changes {
		line := fmt.Sprintf("  %s %s %s", signs[c.Action], c.Kind, c.Name)
		switch {
		case c.Action == "refused":
			line += " (refused " + c.Refused + ")"
		case c.Action == "skipped":
			line += " (skipped " + c.Refused + ": not yours to change)"
		case c.Action == "unchanged":
			line += " (unchanged)"
		}
		if c.Outcome != "" {
			line += ": " + c.Outcome
		}
		fmt.Fprintln(w, line)
		keys := make([]string, 0, len(c.Diff))
		for k := range c.Diff {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			d := c.Diff[k]
			switch {
			case d.Before == nil:
				fmt.Fprintf(w, "      %s: %s\n", k, clip(*d.After))
			case d.After == nil:
				fmt.Fprintf(w, "      %s: %s -> (removed)\n", k, clip(*d.Before))
			default:
				fmt.Fprintf(w, "      %s: %s -> %s\n", k, clip(*d.Before), clip(*d.After))
			}
		}
		for _, e := range c.Errors {
			fmt.Fprintf(w, "      %s\n", itemText(e))
		}
		for _, m := range c.Warnings {
			fmt.Fprintf(w, "      warning: %s\n", m)
		}
		if c.Error != nil {
			fmt.Fprintf(w, "      %s\n", itemText(*c.Error))
		}
	}
	s := p.Summary
	fmt.Fprintf(w, "%d to create, %d to update, %d to delete, %d unchanged, %d refused", s["create"], s["update"], s["delete"], s["unchanged"], s["refused"])
	skipped := 0
	for _, c := range p.Changes {
		if c.Action == "skipped" {
			skipped++
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, ", %d skipped as not yours to change", skipped)
	}
	if s["applied"]+s["failed"]+s["skipped"]-skipped > 0 {
		fmt.Fprintf(w, "; %d applied, %d failed, %d skipped", s["applied"], s["failed"], s["skipped"]-skipped)
	}
	fmt.Fprintln(w, ".")
	for _, b := range p.Budget {
		if b.Limit != nil {
			fmt.Fprintf(w, "Budget after the plan: %s %d of %d\n", b.Dimension, b.Use, *b.Limit)
		}
	}
}

// clip keeps a value on one line.
func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}

func short(fp string) string {
	if len(fp) > 12 {
		return fp[:12]
	}
	return fp
}

// outcome is the exit code of a plan: 1 when something is refused, 2 for
// changes with --detailed-exitcode.
func (p *plan) outcome(detailed bool) error {
	s := p.Summary
	switch {
	case s["refused"] > 0:
		return exitCode(1)
	case detailed && s["create"]+s["update"]+s["delete"] > 0:
		return exitCode(2)
	}
	return nil
}

func planCmd(o *options) *cobra.Command {
	var f docFlags
	cmd := &cobra.Command{
		Use:   "plan -f FILE",
		Short: "Show what applying a document would change",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			body, err := o.readDoc(f.files, f.kinds)
			if err != nil {
				return err
			}
			p, err := o.plan(cmd.Context(), bu, stage, body, f)
			if err != nil {
				return err
			}
			o.show(p)
			return p.outcome(f.detailedExitCode)
		},
	}
	docFlagsOn(cmd, &f, false)
	return cmd
}

func docFlagsOn(cmd *cobra.Command, f *docFlags, apply bool) {
	cmd.Flags().StringSliceVarP(&f.files, "file", "f", nil, "the document: files (multi-document YAML or JSON {\"items\": [...]}) or directories of them; repeatable")
	cmd.Flags().BoolVar(&f.prune, "prune", false, "also delete the unit's topics, connectors and identity pools the document does not declare")
	cmd.Flags().BoolVar(&f.detailedExitCode, "detailed-exitcode", false, "exit 2 when the plan has changes")
	kindFlags(cmd, f)
	if apply {
		cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "apply without asking")
		cmd.Flags().StringVar(&f.credentials, "credentials-dir", "", "write the secrets of API keys the apply makes here, one file per key "+
			"(KEY.properties, mode 0600), instead of the standard output")
	}
}

// kindFlags choose kinds and whether changes the caller may not make are
// skipped.
func kindFlags(cmd *cobra.Command, f *docFlags) {
	cmd.Flags().StringSliceVar(&f.kinds, "kind", nil, "only these kinds of the document (Topic, Schema, Connector, ServiceAccount, IdentityPool; repeatable or comma-separated)")
	cmd.Flags().BoolVar(&f.skipForbidden, "skip-forbidden", f.skipForbidden, "plan changes your role may not make as skipped, with why, so that the rest can apply")
}

func applyCmd(o *options) *cobra.Command {
	var f docFlags
	cmd := &cobra.Command{
		Use:   "apply -f FILE",
		Short: "Plan a document, show the plan, and apply it once confirmed",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			body, err := o.readDoc(f.files, f.kinds)
			if err != nil {
				return err
			}
			return o.planAndApply(cmd.Context(), bu, stage, body, f)
		},
	}
	docFlagsOn(cmd, &f, true)
	return cmd
}

// planAndApply shows the plan, asks (unless --yes), and applies exactly
// that plan by its fingerprint.
func (o *options) planAndApply(ctx context.Context, bu, stage string, body []byte, f docFlags) error {
	p, err := o.plan(ctx, bu, stage, body, f)
	if err != nil {
		return err
	}
	o.show(p)
	if err := p.outcome(false); err != nil {
		return err
	}
	if p.Summary["create"]+p.Summary["update"]+p.Summary["delete"] == 0 {
		fmt.Fprintln(o.stderr, "Nothing to apply.")
		return nil
	}
	if n := p.newKeys(); n > 0 && f.credentials == "" {
		fmt.Fprintf(o.stderr, "Warning: the apply makes %d API keys and prints their secrets; give --credentials-dir DIR to write them to files instead\n", n)
	}
	if !f.yes {
		fmt.Fprintf(o.stderr, "Apply these changes to %s/%s? Type yes: ", bu, stage)
		answer, _ := bufio.NewReader(o.stdin).ReadString('\n')
		if strings.TrimSpace(answer) != "yes" {
			fmt.Fprintln(o.stderr, "Not applied.")
			return exitCode(1)
		}
	}
	doc, err := wireDoc(body)
	if err != nil {
		return err
	}
	c, err := o.api(ctx)
	if err != nil {
		return err
	}
	applied, _, err := c.ApplyResources(ctx, bu, stage, doc, &client.ApplyResourcesParams{Prune: f.prune, SkipForbidden: f.skipForbidden,
		IfMatch: `"` + p.Fingerprint + `"`})
	if err != nil {
		return err
	}
	done := &plan{applied}
	o.show(done)
	if o.output != "json" {
		for _, c := range done.Changes {
			for _, k := range c.APIKeys {
				if err := o.handOver(k, keyFlags{dir: f.credentials}); err != nil {
					return err
				}
			}
		}
	}
	notDone := 0
	for _, c := range done.Changes {
		if c.Outcome == "failed" || c.Outcome == "skipped" {
			notDone++
		}
	}
	if notDone > 0 {
		return exitCode(1)
	}
	return nil
}

// newKeys counts the API keys a plan makes.
func (p *plan) newKeys() int {
	n := 0
	for _, c := range p.Changes {
		for field := range c.Diff {
			if strings.HasPrefix(field, "apiKeys.") {
				n++
			}
		}
	}
	return n
}

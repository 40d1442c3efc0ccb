package main

import (
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/internal/document"
)

func exportCmd(o *options) *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the unit's current resources as a document (YAML by default; secrets by reference)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bu, stage, err := o.scope()
			if err != nil {
				return err
			}
			format := o.output
			if format == "" || format == "table" {
				format = "yaml"
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			raw, _, err := c.ExportDocument(cmd.Context(), bu, stage, format)
			if err != nil {
				return err
			}
			var w io.Writer = o.stdout
			if file != "" {
				return os.WriteFile(file, raw, 0o644)
			}
			_, err = w.Write(raw)
			return err
		},
	}
	cmd.Flags().StringVarP(&file, "file", "f", "", "write to this file instead of the standard output")
	return cmd
}

func promoteCmd(o *options) *cobra.Command {
	var (
		from, to string
		planOnly bool
		f        docFlags
	)
	cmd := &cobra.Command{
		Use:   "promote --from dev --to qas",
		Short: "Plan the unit's resources of one stage in the next, and apply once confirmed",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.bu == "" || from == "" || to == "" {
				return errors.New("give the business unit and both stages: --bu BU --from STAGE --to STAGE")
			}
			c, err := o.api(cmd.Context())
			if err != nil {
				return err
			}
			raw, _, err := c.ExportDocument(cmd.Context(), o.bu, from, "")
			if err != nil {
				return err
			}
			doc, err := document.Read(raw)
			if err != nil {
				return err
			}
			if doc, err = onlyKinds(doc, f.kinds); err != nil {
				return err
			}
			body, err := o.encodeDoc(doc, document.ResolveSecrets(doc, o.getenv))
			if err != nil {
				return err
			}
			if planOnly {
				p, err := o.plan(cmd.Context(), o.bu, to, body, f)
				if err != nil {
					return err
				}
				o.show(p)
				return p.outcome(f.detailedExitCode)
			}
			return o.planAndApply(cmd.Context(), o.bu, to, body, f)
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the stage to promote from")
	cmd.Flags().StringVar(&to, "to", "", "the stage to promote to")
	cmd.Flags().BoolVar(&planOnly, "plan-only", false, "show the plan without applying")
	cmd.Flags().BoolVar(&f.prune, "prune", false, "also delete what the source stage does not have")
	cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "apply without asking")
	cmd.Flags().BoolVar(&f.detailedExitCode, "detailed-exitcode", false, "with --plan-only: exit 2 when the plan has changes")
	// An export holds every kind of the unit; a pipeline's role may not
	// make all of them, and what it may not is skipped, not a refusal.
	f.skipForbidden = true
	kindFlags(cmd, &f)
	return cmd
}

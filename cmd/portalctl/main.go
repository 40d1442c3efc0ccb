// Command portalctl is the portal's command-line client: sign in, read
// resources, plan, apply, export and promote desired-state documents,
// and create and rotate API keys.
//
// Exit codes: 0 done; 1 refused or failed; 2 the plan has changes (with
// --detailed-exitcode, as Terraform does).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/edh-platform/rms-portal/client"
	"github.com/edh-platform/rms-portal/internal/version"
)

// exitCode is an error that ends the command with a given code; its
// message, when any, was printed already.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// options are the flags every command shares.
type options struct {
	server string
	bu     string
	stage  string
	output string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) (string, bool)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.LookupEnv))
}

// run executes a command line and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) (string, bool)) int {
	o := &options{stdin: stdin, stdout: stdout, stderr: stderr, getenv: getenv}
	root := newRoot(o)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	}
	var ae *client.Error
	if errors.As(err, &ae) {
		printError(stderr, ae)
	} else {
		fmt.Fprintln(stderr, "Error:", err)
	}
	return 1
}

func newRoot(o *options) *cobra.Command {
	env := func(name, def string) string {
		if v, ok := o.getenv(name); ok && v != "" {
			return v
		}
		return def
	}
	root := &cobra.Command{
		Use:           "portalctl",
		Short:         "Manage a business unit's Kafka resources through the self-service portal",
		Version:       version.Get().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	f := root.PersistentFlags()
	f.StringVar(&o.server, "server", env("PORTALCTL_SERVER", "http://localhost:8080"), "the portal's base URL ($PORTALCTL_SERVER)")
	f.StringVarP(&o.bu, "bu", "b", env("PORTALCTL_BU", ""), "business unit ($PORTALCTL_BU)")
	f.StringVarP(&o.stage, "stage", "s", env("PORTALCTL_STAGE", ""), "stage ($PORTALCTL_STAGE)")
	f.StringVarP(&o.output, "output", "o", "", "output format: table, json or yaml")
	root.AddCommand(loginCmd(o), logoutCmd(o), getCmd(o, false), getCmd(o, true), planCmd(o), applyCmd(o), exportCmd(o), promoteCmd(o),
		createCmd(o), rotateCmd(o), produceCmd(o), requestCmd(o), grantCmd(o))
	return root
}

// scope checks that --bu and --stage are given and returns them.
func (o *options) scope() (string, string, error) {
	if o.bu == "" || o.stage == "" {
		return "", "", errors.New("give the business unit and the stage: --bu BU --stage STAGE (or $PORTALCTL_BU, $PORTALCTL_STAGE)")
	}
	return o.bu, o.stage, nil
}

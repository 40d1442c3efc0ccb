package document

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/edh-platform/rms-portal/internal/portal"
	"github.com/edh-platform/rms-portal/internal/portal/ascode"
)

// YAML writes a document as multi-document YAML, one resource per
// document, with secrets by reference only.
func YAML(doc ascode.Document) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	for _, r := range doc.Resources {
		if err := enc.Encode(fromResource(r, false)); err != nil {
			return nil, fmt.Errorf("writing %s %s: %w", r.Kind, r.Name, err)
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type list struct {
	Items []resource `json:"items"`
	Prune bool       `json:"prune,omitempty"`
	Force bool       `json:"force,omitempty"`
}

// JSON writes a document as {"items": [...]}. Secret values are written
// only when withValues is set: a client sending the document to the
// portal, never a file.
func JSON(doc ascode.Document, withValues bool) ([]byte, error) {
	out := list{Items: make([]resource, len(doc.Resources)), Prune: doc.Prune, Force: doc.Force}
	for i, r := range doc.Resources {
		out.Items[i] = fromResource(r, withValues)
	}
	return json.MarshalIndent(out, "", "  ")
}

// ReadFile reads a document from a file, as a client does before sending
// it: schema files are read relative to the document, secret values must
// not be in it, and secrets are filled from the environment (lookup).
// It returns the environment variables that were not set; a create that
// needs them is refused by the portal.
func ReadFile(path string, lookup func(string) (string, bool)) (ascode.Document, []string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return ascode.Document{}, nil, err
	}
	doc, err := Read(data)
	if err != nil {
		return ascode.Document{}, nil, err
	}
	var v portal.Validation
	for i := range doc.Resources {
		r := &doc.Resources[i]
		field := fmt.Sprintf("items[%d].spec.", i)
		if sc := portal.DeclOf[portal.SchemaDecl](*r); sc != nil && sc.SchemaFile != "" {
			if sc.Schema != "" {
				v.Add(portal.Invalid(field+"schemaFile", "%s %s gives both schema and schemaFile; give one", r.Kind, r.Name))
				continue
			}
			file := sc.SchemaFile
			if !filepath.IsAbs(file) {
				file = filepath.Join(filepath.Dir(path), file)
			}
			text, err := os.ReadFile(file)
			if err != nil {
				v.Add(portal.Invalid(field+"schemaFile", "%s %s: %v", r.Kind, r.Name, err))
				continue
			}
			sc.Schema, sc.SchemaFile = string(text), ""
		}
		cn := portal.DeclOf[portal.ConnectorDecl](*r)
		if cn == nil {
			continue
		}
		for k, s := range cn.Secrets {
			switch {
			case s.Value != "":
				v.Add(portal.Invalid(field+"secrets."+k+".value", "%s %s: secrets are never written in files; give fromEnv, the environment variable that holds it", r.Kind, r.Name))
			case s.FromEnv == "":
				v.Add(portal.Missing(field + "secrets." + k + ".fromEnv"))
			}
		}
	}
	if err := v.Err(); err != nil {
		return ascode.Document{}, nil, err
	}
	return doc, ResolveSecrets(doc, lookup), nil
}

// ResolveSecrets fills each connector secret's value from the environment
// variable it names (lookup), and returns the variables that were not set;
// a create or update that needs them is refused by the portal.
func ResolveSecrets(doc ascode.Document, lookup func(string) (string, bool)) []string {
	var missing []string
	for _, r := range doc.Resources {
		cn := portal.DeclOf[portal.ConnectorDecl](r)
		if cn == nil {
			continue
		}
		for k, s := range cn.Secrets {
			if s.FromEnv == "" {
				continue
			}
			if val, ok := lookup(s.FromEnv); ok && val != "" {
				s.Value = val
				cn.Secrets[k] = s
			} else {
				missing = append(missing, s.FromEnv)
			}
		}
	}
	return missing
}

// ReadFiles reads documents from files and directories (a directory's
// .yaml, .yml and .json files, in name order) into one document, so that
// a repository can keep one file per resource or one per unit. Problems
// name their file.
func ReadFiles(paths []string, lookup func(string) (string, bool)) (ascode.Document, []string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return ascode.Document{}, nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return ascode.Document{}, nil, err
		}
		found := false
		for _, e := range entries {
			switch filepath.Ext(e.Name()) {
			case ".yaml", ".yml", ".json":
				if !e.IsDir() {
					files, found = append(files, filepath.Join(p, e.Name())), true
				}
			}
		}
		if !found {
			return ascode.Document{}, nil, fmt.Errorf("%s holds no .yaml, .yml or .json file", p)
		}
	}
	var (
		doc     ascode.Document
		missing []string
		v       portal.Validation
	)
	for _, f := range files {
		d, m, err := ReadFile(f, lookup)
		if ps := portal.Problems(err); len(ps) > 0 {
			for _, p := range ps {
				e := *p
				e.Message = f + ": " + e.Message
				v.Add(&e)
			}
			continue
		} else if err != nil {
			return ascode.Document{}, nil, fmt.Errorf("%s: %w", f, err)
		}
		doc.Resources = append(doc.Resources, d.Resources...)
		doc.Prune = doc.Prune || d.Prune
		doc.Force = doc.Force || d.Force
		missing = append(missing, m...)
	}
	if len(doc.Resources) > MaxResources {
		v.Add(portal.Invalid("items", "the files hold %d resources; at most %d are planned at once", len(doc.Resources), MaxResources))
	}
	return doc, missing, v.Err()
}

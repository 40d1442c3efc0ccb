// The configuration reference is built here, for the tests and `make docs`
// (which runs TestOperationsDocHasTheReference with -update): it reads the
// doc comments of config.go and load.go, and is no part of the binary.

package config

import (
	"embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"time"
)

// source is this package's definition of the configuration (config.go)
// and how it is loaded (load.go): the reference reads the doc comments, so
// that the documentation is the definition's.
//
//go:embed config.go load.go
var source embed.FS

// Key is one configuration key, as the reference documents it.
type Key struct {
	// Path is the key's place in the file: "rate_limits.caller.burst",
	// "landing_zones[].environments.<stage>.kafka.api_key".
	Path string
	// Type is string, boolean, integer, number, duration, list of strings,
	// list, or map.
	Type string
	// Default is the value the portal takes when the key is absent ("" for
	// none).
	Default string
	// Env names the environment variable that overrides the key.
	Env string
	// Doc is the field's (or its type's) doc comment.
	Doc string
}

// Reference lists every key of the configuration in file order, with its
// type, default, environment override and description.
func Reference() ([]Key, error) {
	docs, err := fieldDocs()
	if err != nil {
		return nil, err
	}
	// The defaults are whatever applyDefaults gives an empty production
	// configuration, so that the reference cannot drift from the code.
	var defaults Config
	defaults.applyDefaults()
	var keys []Key
	var walk func(t reflect.Type, v reflect.Value, prefix string)
	walk = func(t reflect.Type, v reflect.Value, prefix string) {
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			path := prefix + name
			var fv reflect.Value
			if v.IsValid() {
				fv = v.Field(i)
			}
			k := Key{Path: path, Type: typeName(f.Type), Env: f.Tag.Get("env"), Default: f.Tag.Get("default"),
				Doc: docs[t.Name()+"."+f.Name]}
			if k.Doc == "" {
				k.Doc = docs[elem(f.Type).Name()]
			}
			if k.Default == "" && fv.IsValid() && !fv.IsZero() {
				k.Default = valueString(fv)
			}
			keys = append(keys, k)
			switch ft := elem(f.Type); {
			case ft.Kind() == reflect.Struct && ft != reflect.TypeOf(time.Duration(0)):
				sub := path + "."
				switch f.Type.Kind() {
				case reflect.Slice:
					sub = path + "[]."
				case reflect.Map:
					sub = path + "." + mapKey(name) + "."
				}
				var sv reflect.Value
				if f.Type.Kind() == reflect.Struct {
					sv = fv
				}
				walk(ft, sv, sub)
			}
		}
	}
	walk(reflect.TypeOf(defaults), reflect.ValueOf(defaults), "")
	return keys, nil
}

// mapKey names a map's keys in paths.
func mapKey(field string) string {
	if field == "environments" {
		return "<stage>"
	}
	return "<name>"
}

func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

func typeName(t reflect.Type) string {
	if t == reflect.TypeOf(time.Duration(0)) {
		return "duration"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Pointer, reflect.Struct:
		return "object"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "list of strings"
		}
		return "list of objects"
	case reflect.Map:
		return "map of objects"
	}
	return t.String()
}

func valueString(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case time.Duration:
		return x.String()
	case []string:
		return strings.Join(x, ", ")
	case string, bool, int, int64, float64:
		return fmt.Sprint(x)
	}
	return ""
}

// fieldDocs reads the doc comments of config.go: "Type.Field" for fields
// and "Type" for types.
func fieldDocs() (map[string]string, error) {
	src, err := source.ReadFile("config.go")
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "config.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	docs := map[string]string{}
	clean := func(g *ast.CommentGroup) string {
		return strings.Join(strings.Fields(g.Text()), " ")
	}
	for _, d := range file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, sp := range gd.Specs {
			ts := sp.(*ast.TypeSpec)
			if gd.Doc != nil {
				docs[ts.Name.Name] = clean(gd.Doc)
			}
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			// A comment above several fields that names them documents each
			// ("APIKey and APISecret are ...").
			var last *ast.CommentGroup
			for _, f := range st.Fields.List {
				if f.Doc != nil {
					last = f.Doc
				}
				for _, n := range f.Names {
					switch {
					case f.Doc != nil:
						docs[ts.Name.Name+"."+n.Name] = clean(f.Doc)
					case last != nil && slices.Contains(strings.FieldsFunc(last.Text(), notWord), n.Name):
						docs[ts.Name.Name+"."+n.Name] = clean(last)
					}
				}
			}
		}
	}
	return docs, nil
}

func notWord(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}

// Markdown renders the reference as a table.
func Markdown(keys []Key) string {
	var b strings.Builder
	b.WriteString("| Key | Type | Default | Environment | Description |\n|---|---|---|---|---|\n")
	esc := strings.NewReplacer("|", `\|`, "\n", " ")
	code := func(s string) string {
		if s == "" {
			return ""
		}
		return "`" + esc.Replace(s) + "`"
	}
	for _, k := range keys {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", code(k.Path), k.Type, esc.Replace(k.Default), code(k.Env), esc.Replace(k.Doc))
	}
	return b.String()
}

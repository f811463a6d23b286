package cluster

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model"
)

// renderTemplate writes a pod template as YAML-like lines: keys sorted, one
// level of two-space indent per nesting, list items marked "- ", unset
// fields left out. The same template always renders the same lines, which
// is all a line diff needs. The pod-template-hash label is left out: it
// differs between every two ReplicaSets and says nothing about the change.
func renderTemplate(t *corev1.PodTemplateSpec) ([]string, error) {
	if t == nil {
		return nil, nil
	}
	raw, err := json.Marshal(model.WithoutHash(t))
	if err != nil {
		return nil, fmt.Errorf("render pod template: %w", err)
	}
	var tree any
	if err := json.Unmarshal(raw, &tree); err != nil {
		return nil, fmt.Errorf("render pod template: %w", err)
	}
	var lines []string
	renderValue(&lines, "", tree)
	return lines, nil
}

// renderValue appends v's lines at indent. Maps and lists open their own
// block; scalars were already written by the caller's "key: " line.
func renderValue(lines *[]string, indent string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range mapKeys(v, false) {
			renderEntry(lines, indent, k+":", v[k])
		}
	case []any:
		for _, item := range v {
			renderEntry(lines, indent, "-", item)
		}
	}
}

// renderEntry writes one "key:" or "-" line with its value: inline for a
// scalar, as an indented block for a non-empty map or list. A map in a list
// starts on the item's own line ("- name: web"), as YAML writes it.
func renderEntry(lines *[]string, indent, head string, v any) {
	switch val := v.(type) {
	case nil:
		// Unset fields (a zero creationTimestamp marshals as null) say nothing.
		if head == "-" {
			*lines = append(*lines, indent+"- null")
		}
	case map[string]any:
		if len(val) == 0 {
			*lines = append(*lines, indent+head+" {}")
			return
		}
		if head == "-" {
			first := len(*lines)
			for _, k := range mapKeys(val, true) {
				renderEntry(lines, indent+"  ", k+":", val[k])
			}
			(*lines)[first] = indent + "- " + strings.TrimPrefix((*lines)[first], indent+"  ")
			return
		}
		*lines = append(*lines, indent+head)
		renderValue(lines, indent+"  ", val)
	case []any:
		if len(val) == 0 {
			*lines = append(*lines, indent+head+" []")
			return
		}
		*lines = append(*lines, indent+head)
		renderValue(lines, indent+"  ", val)
	default:
		*lines = append(*lines, indent+head+" "+scalar(val))
	}
}

// scalar writes a JSON scalar; strings are quoted only when YAML would
// otherwise read them as something else ("true", "8080", "a: b").
func scalar(v any) string {
	switch v := v.(type) {
	case string:
		if needsQuotes(v) {
			return strconv.Quote(v)
		}
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(v)
}

func needsQuotes(s string) bool {
	return s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\n\t\"") ||
		strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'%@`") ||
		strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") ||
		!isPlainWord(s)
}

// isPlainWord reports whether a string would not be read as a number, a
// boolean or null if written unquoted.
func isPlainWord(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "~":
		return false
	}
	return true
}

// mapKeys lists m's keys in order; nameFirst moves "name" to the front.
func mapKeys(m map[string]any, nameFirst bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if nameFirst && (a == "name") != (b == "name") {
			if a == "name" {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return keys
}

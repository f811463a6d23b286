package cluster_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"rollscope/model/cluster"
)

// changed is the diff's '+' and '-' lines, trimmed, as "+text" / "-text".
func changed(diff []cluster.DiffLine) []string {
	var out []string
	for _, l := range diff {
		if l.Op != ' ' {
			out = append(out, string(l.Op)+strings.TrimSpace(l.Text))
		}
	}
	return out
}

// The history pane's diff: the current template → the selected revision,
// as every undo diff reads: '-' goes away, '+' is what the undo brings.
func TestRevisionDiffComparesWithTheCurrentTemplate(t *testing.T) {
	m := newMidRollout() // revision 2 (web:v2) is the current template
	c := loaded(m.objects()...)
	diff, err := c.RevisionDiff(shop, "frontend", 1)
	if err != nil {
		t.Fatalf("RevisionDiff(1): %v", err)
	}
	// Only the image differs; the pod-template-hash labels differ too but
	// are not part of the template's meaning.
	if got, want := changed(diff), []string{"-image: web:v2", "+image: web:v1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("changed lines = %q, want %q", got, want)
	}
	var text []string
	for _, l := range diff {
		text = append(text, l.Text)
	}
	if rendered := strings.Join(text, "\n"); !strings.Contains(rendered, "containerPort: 8080") || !strings.Contains(rendered, "app: frontend") {
		t.Errorf("diff does not show the unchanged template around the change:\n%s", rendered)
	}

	current, err := c.RevisionDiff(shop, "frontend", 2)
	if err != nil {
		t.Fatalf("RevisionDiff(2): %v", err)
	}
	if got := changed(current); len(got) != 0 {
		t.Fatalf("the current revision differs from the current template: %q", got)
	}
}

func TestRevisionDiffErrors(t *testing.T) {
	c := loaded(newMidRollout().objects()...)
	if _, err := c.RevisionDiff(shop, "frontend", 9); !errors.Is(err, cluster.ErrUnknownRevision) {
		t.Errorf("RevisionDiff of a missing revision: err = %v, want ErrUnknownRevision", err)
	}
	if _, err := c.RevisionDiff(shop, "nope", 1); !errors.Is(err, cluster.ErrUnknownDeployment) {
		t.Errorf("RevisionDiff of a missing deployment: err = %v, want ErrUnknownDeployment", err)
	}
}

func TestTemplateDiff(t *testing.T) {
	base := podTemplate("web", "web:v1")
	withEnv := podTemplate("web", "web:v1")
	withEnv.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "MODE", Value: "true"}}
	withEnv.Annotations = map[string]string{"note": "a: b"}
	cases := []struct {
		name     string
		from, to *corev1.PodTemplateSpec
		want     []string
	}{
		{name: "same", from: &base, to: &base},
		{name: "both nil", from: nil, to: nil},
		{name: "env and annotation added", from: &base, to: &withEnv,
			// Values that would read as something else unquoted are quoted.
			want: []string{"+annotations:", `+note: "a: b"`, "+env:", "+- name: MODE", `+value: "true"`}},
		{name: "removed", from: &withEnv, to: &base,
			want: []string{"-annotations:", `-note: "a: b"`, "-env:", "-- name: MODE", `-value: "true"`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := changed(cluster.TemplateDiff(tc.from, tc.to)); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("changed lines = %q, want %q", got, tc.want)
			}
		})
	}
}

// Two huge templates that share nothing still diff, wholesale, without
// building a table the size of their product.
func TestTemplateDiffHugeTemplates(t *testing.T) {
	huge := func(image string) *corev1.PodTemplateSpec {
		tpl := podTemplate("web", image)
		for i := range 3000 {
			tpl.Spec.Containers = append(tpl.Spec.Containers, corev1.Container{Name: image + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + strings.Repeat("y", i/26)})
		}
		return &tpl
	}
	diff := cluster.TemplateDiff(huge("a"), huge("b"))
	var plus, minus int
	for _, l := range diff {
		switch l.Op {
		case '+':
			plus++
		case '-':
			minus++
		}
	}
	if plus == 0 || minus == 0 {
		t.Errorf("diff of two different huge templates: %d added, %d removed lines, want both", plus, minus)
	}
}

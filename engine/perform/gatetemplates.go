package perform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"rollscope/kube/objects"
	"rollscope/model/action"
	"rollscope/model/argo"
)

// canaryGates are the canary's metric gates as its plan carries them: those
// written out, then the metrics of each template it names ("NAME" an
// AnalysisTemplate of the namespace, "cluster/NAME" a
// ClusterAnalysisTemplate, "gates.yaml" a file holding one), with the
// template each came from.
func canaryGates(ctx context.Context, cl kubernetes.Interface, namespace string, s action.CanarySettings) ([]argo.Metric, []string, error) {
	gates := append([]argo.Metric(nil), s.Gates...)
	from := make([]string, len(gates))
	for _, name := range s.Templates {
		read := func() (*argo.AnalysisTemplate, error) { return analysisTemplate(ctx, cl, namespace, name) }
		if isGatesFile(name) {
			read = func() (*argo.AnalysisTemplate, error) { return gatesFile(name) }
		}
		t, err := read()
		if err != nil {
			return nil, nil, err
		}
		for _, m := range t.Spec.Metrics {
			gates = append(gates, m)
			from = append(from, name)
		}
	}
	seen := map[string]string{}
	for i, g := range gates {
		if g.Name == "" {
			return nil, nil, fmt.Errorf("a metric gate of the canary has no name (give each metric a name)")
		}
		if first, dup := seen[g.Name]; dup {
			return nil, nil, fmt.Errorf("the canary's gates have metric %q twice (%s and %s): keep metric names unique, as an AnalysisRun does", g.Name, orWritten(first), orWritten(from[i]))
		}
		seen[g.Name] = from[i]
	}
	return gates, from, nil
}

func orWritten(template string) string {
	if template == "" {
		return "written out"
	}
	return "template " + template
}

// isGatesFile says whether a name the canary's analysis gives is a file of
// gates rather than a template in the cluster: a template's name has no
// "/" but cluster/NAME's, and no file extension.
func isGatesFile(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	rest, _ := strings.CutPrefix(name, "cluster/")
	return strings.Contains(rest, "/")
}

// gatesFile reads an AnalysisTemplate (or ClusterAnalysisTemplate) manifest
// from the operator's disk: gates kept beside the service's manifests, for
// a cluster without Argo's CRDs.
func gatesFile(path string) (*argo.AnalysisTemplate, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read the canary's gates: %w", err)
	}
	var t argo.AnalysisTemplate
	if err := yaml.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s is no AnalysisTemplate rollscope can read: %v", path, err)
	}
	switch {
	case t.Kind != "AnalysisTemplate" && t.Kind != "ClusterAnalysisTemplate":
		return nil, fmt.Errorf("%s holds kind %q; the canary's gates file holds an AnalysisTemplate (kind: AnalysisTemplate, spec.metrics)", path, t.Kind)
	case len(t.Spec.Metrics) == 0:
		return nil, fmt.Errorf("%s has no spec.metrics to gate the canary with", path)
	case len(t.Spec.DryRun) > 0 || len(t.Spec.MeasurementRetention) > 0:
		return nil, fmt.Errorf("%s has a dryRun or measurementRetention, which rollscope's gates do not run (remove it)", path)
	}
	return &t, nil
}

// namedNotFound says whether a NotFound is about the object name — the
// resource is served, the object is missing — rather than about the
// resource itself.
func namedNotFound(err error, name string) bool {
	var st apierrors.APIStatus
	if !errors.As(err, &st) {
		return false
	}
	d := st.Status().Details
	return d != nil && d.Name == name
}

// analysisTemplate reads the template a canary names.
func analysisTemplate(ctx context.Context, cl kubernetes.Interface, namespace, name string) (*argo.AnalysisTemplate, error) {
	dyn, err := objects.DynamicOf(cl)
	if err != nil {
		return nil, fmt.Errorf("cannot read the canary's analysis template %q: %w", name, err)
	}
	what, res, ns := "AnalysisTemplate", dyn.Resource(argo.AnalysisTemplates).Namespace(namespace), namespace
	get := res.Get
	if n, ok := strings.CutPrefix(name, "cluster/"); ok {
		what, ns, name, get = "ClusterAnalysisTemplate", "", n, dyn.Resource(argo.ClusterAnalysisTemplates).Get
	}
	u, err := get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err) && !namedNotFound(err, name):
		return nil, fmt.Errorf("this cluster serves no %ss (Argo Rollouts' CRDs are not installed): give a file holding one (gates.yaml) instead of %q", what, name)
	case apierrors.IsNotFound(err) && ns != "":
		return nil, fmt.Errorf("%s %q not found in namespace %q: the canary's analysis names it (create it, or name another)", what, name, ns)
	case apierrors.IsNotFound(err):
		return nil, fmt.Errorf("%s %q not found: the canary's analysis names it (create it, or name another)", what, name)
	case err != nil:
		return nil, fmt.Errorf("cannot read %s %q: %w", what, name, err)
	}
	var t argo.AnalysisTemplate
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, &t); err != nil {
		return nil, fmt.Errorf("%s %q is not an AnalysisTemplate rollscope can read: %w", what, name, err)
	}
	if len(t.Spec.Metrics) == 0 {
		return nil, fmt.Errorf("%s %q has no metrics to gate the canary with", what, name)
	}
	return &t, nil
}

package memapi_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

func TestDeploymentValidationMessages(t *testing.T) {
	rolling := func(surge, unavailable intstr.IntOrString) func(d *appsv1.Deployment) {
		return func(d *appsv1.Deployment) {
			d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}}
		}
	}
	cases := []struct {
		name   string
		change func(d *appsv1.Deployment)
		want   string
	}{
		{"image missing", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "" },
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value`},
		{"container name missing", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Name = "" },
			`Deployment.apps "web" is invalid: spec.template.spec.containers[0].name: Required value`},
		{"no containers", func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers = nil },
			`Deployment.apps "web" is invalid: spec.template.spec.containers: Required value`},
		{"bad env name", func(d *appsv1.Deployment) {
			d.Spec.Template.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "1BAD", Value: "x"}}
		}, `Deployment.apps "web" is invalid: spec.template.spec.containers[0].env[0].name: Invalid value: "1BAD": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`},
		{"negative replicas", func(d *appsv1.Deployment) { d.Spec.Replicas = ptr[int32](-1) },
			`Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"no selector", func(d *appsv1.Deployment) { d.Spec.Selector = nil },
			"Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`]"},
		{"selector does not match", func(d *appsv1.Deployment) { d.Spec.Selector.MatchLabels = labelsOf("other") },
			"Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"both zero", rolling(intstr.FromInt(0), intstr.FromString("0%")),
			"Deployment.apps \"web\" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"0%\": may not be 0 when `maxSurge` is 0"},
		{"over 100%", rolling(intstr.FromInt(1), intstr.FromString("110%")),
			`Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "110%": must not be greater than 100%`},
		{"not a percentage", rolling(intstr.FromString("a lot"), intstr.FromInt(1)),
			`Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: "a lot": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`},
		{"negative surge", rolling(intstr.FromInt(-1), intstr.FromInt(1)),
			`Deployment.apps "web" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0`},
		{"two problems", func(d *appsv1.Deployment) {
			d.Spec.Replicas = ptr[int32](-2)
			d.Spec.Template.Spec.Containers[0].Image = ""
		}, `Deployment.apps "web" is invalid: [spec.replicas: Invalid value: -2: must be greater than or equal to 0, spec.template.spec.containers[0].image: Required value]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			d := deployment("web", 1)
			tc.change(d)
			_, err := f.client.AppsV1().Deployments("default").Create(ctx, d, metav1.CreateOptions{})
			if !apierrors.IsInvalid(err) || err.Error() != tc.want {
				t.Fatalf("create:\n got %v\nwant %s", err, tc.want)
			}
			// The same rules hold on update.
			valid := must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{}))(t)
			tc.change(valid)
			if _, err := f.client.AppsV1().Deployments("default").Update(ctx, valid, metav1.UpdateOptions{}); !apierrors.IsInvalid(err) {
				t.Fatalf("update accepted what create refused: %v", err)
			}
		})
	}
}

func TestOtherValidation(t *testing.T) {
	f := newFixture(t)
	d := must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{}))(t)
	d.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "x"}}
	d.Spec.Template.Labels["tier"] = "x"
	_, err := f.client.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{})
	if !apierrors.IsInvalid(err) || !contains(err.Error(), "spec.selector: Invalid value:") || !contains(err.Error(), "field is immutable") {
		t.Fatalf("changing an apps/v1 selector: %v", err)
	}

	b := budget("pdb", "web", 1)
	b.Spec.MaxUnavailable = ptr(intstr.FromInt(1))
	if _, err := f.client.PolicyV1().PodDisruptionBudgets("default").Create(ctx, b, metav1.CreateOptions{}); !apierrors.IsInvalid(err) || !contains(err.Error(), "minAvailable and maxUnavailable cannot be both set") {
		t.Fatalf("budget with both bounds: %v", err)
	}

	p := pod("Bad_Name", "a")
	if _, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); !apierrors.IsInvalid(err) || !contains(err.Error(), "metadata.name: Invalid value: \"Bad_Name\"") {
		t.Fatalf("pod with an invalid name: %v", err)
	}
	p = pod("p", "a")
	p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 70000}}
	if _, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err == nil ||
		err.Error() != `Pod "p" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive` {
		t.Fatalf("pod with an invalid port: %v", err)
	}
	p = pod("p", "a")
	p.Spec.Containers[0].Resources = corev1.ResourceRequirements{Requests: resources("2", "1Gi"), Limits: resources("1", "1Gi")}
	if _, err := f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}); err == nil ||
		err.Error() != `Pod "p" is invalid: spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1` {
		t.Fatalf("pod requesting more than its limit: %v", err)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

package memapi_test

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
)

// rich is a template using the fields whose defaults upstream fills in.
func rich() corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labelsOf("web")},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name: "web", Image: "nginx:1.25",
				Ports:          []corev1.ContainerPort{{ContainerPort: 80}},
				Env:            []corev1.EnvVar{{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt(80)}}},
				LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9000}}},
				VolumeMounts:   []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web"}},
			}},
			InitContainers: []corev1.Container{{Name: "init", Image: "busybox"}},
			Volumes: []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "web"}}}},
				{Name: "scratch"},
			},
		},
	}
}

// richDefaulted is rich() as a real API server stores it.
func richDefaulted() corev1.PodTemplateSpec {
	t := rich()
	s := &t.Spec
	s.RestartPolicy = corev1.RestartPolicyAlways
	s.TerminationGracePeriodSeconds = ptr[int64](30)
	s.DNSPolicy = corev1.DNSClusterFirst
	s.SecurityContext = &corev1.PodSecurityContext{}
	s.SchedulerName = "default-scheduler"
	s.Volumes[0].ConfigMap.DefaultMode = ptr[int32](0o644)
	s.Volumes[1].EmptyDir = &corev1.EmptyDirVolumeSource{}
	c := &s.Containers[0]
	c.TerminationMessagePath, c.TerminationMessagePolicy, c.ImagePullPolicy = "/dev/termination-log", corev1.TerminationMessageReadFile, corev1.PullIfNotPresent
	c.Ports[0].Protocol = corev1.ProtocolTCP
	c.Env[0].ValueFrom.FieldRef.APIVersion = "v1"
	c.ReadinessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Scheme = "/", corev1.URISchemeHTTP
	for _, p := range []*corev1.Probe{c.ReadinessProbe, c.LivenessProbe} {
		p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold = 1, 10, 1, 3
	}
	c.LivenessProbe.GRPC.Service = ptr("")
	i := &s.InitContainers[0]
	i.TerminationMessagePath, i.TerminationMessagePolicy, i.ImagePullPolicy = "/dev/termination-log", corev1.TerminationMessageReadFile, corev1.PullAlways
	return t
}

func TestTemplatesAreDefaultedAsUpstream(t *testing.T) {
	f := newFixture(t)
	d := deployment("web", 2)
	d.Spec.Template = rich()
	d = must(f.client.AppsV1().Deployments("default").Create(ctx, d, metav1.CreateOptions{}))(t)

	want := richDefaulted()
	if !reflect.DeepEqual(d.Spec.Template, want) {
		t.Fatalf("defaulted template differs from upstream's:\n got %+v\nwant %+v", d.Spec.Template.Spec, want.Spec)
	}
	// The pod-template-hash, and so the ReplicaSet names, match a real cluster's.
	if got, exp := model.PodTemplateHash(&d.Spec.Template, nil), model.PodTemplateHash(&want, nil); got != exp {
		t.Fatalf("pod-template-hash %s, want %s", got, exp)
	}

	s := d.Spec
	ru := s.Strategy.RollingUpdate
	if s.Strategy.Type != appsv1.RollingUpdateDeploymentStrategyType || ru == nil || ru.MaxSurge.String() != "25%" || ru.MaxUnavailable.String() != "25%" ||
		*s.RevisionHistoryLimit != 10 || *s.ProgressDeadlineSeconds != 600 {
		t.Fatalf("deployment defaults: %+v", s)
	}
	noReplicas := deployment("one", 0)
	noReplicas.Spec.Replicas = nil
	if got := must(f.client.AppsV1().Deployments("default").Create(ctx, noReplicas, metav1.CreateOptions{}))(t); *got.Spec.Replicas != 1 {
		t.Fatalf("replicas default %d, want 1", *got.Spec.Replicas)
	}
}

func TestDefaultsAlsoApplyOnUpdate(t *testing.T) {
	f := newFixture(t)
	d := must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 2), metav1.CreateOptions{}))(t)
	d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{Name: "sidecar", Image: "envoy"})
	d = must(f.client.AppsV1().Deployments("default").Update(ctx, d, metav1.UpdateOptions{}))(t)
	if c := d.Spec.Template.Spec.Containers[1]; c.ImagePullPolicy != corev1.PullAlways || c.TerminationMessagePath == "" {
		t.Fatalf("added container not defaulted: %+v", c)
	}
}

func TestImagePullPolicyDefault(t *testing.T) {
	cases := map[string]corev1.PullPolicy{
		"nginx":                         corev1.PullAlways,
		"nginx:latest":                  corev1.PullAlways,
		"nginx:1.25":                    corev1.PullIfNotPresent,
		"gcr.io/google-samples/gb:v4":   corev1.PullIfNotPresent,
		"localhost:5000/app":            corev1.PullAlways,
		"localhost:5000/app:2":          corev1.PullIfNotPresent,
		"repo/app@sha256:" + hex64():    corev1.PullIfNotPresent,
		"repo/app:v1@sha256:" + hex64(): corev1.PullIfNotPresent,
		"Upper/Case":                    corev1.PullIfNotPresent, // not a valid reference
	}
	f := newFixture(t)
	i := 0
	for image, want := range cases {
		i++
		p := pod("p"+string(rune('a'+i)), "a")
		p.Spec.Containers[0].Image = image
		got := must(f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}))(t)
		if got.Spec.Containers[0].ImagePullPolicy != want {
			t.Errorf("%s: imagePullPolicy %s, want %s", image, got.Spec.Containers[0].ImagePullPolicy, want)
		}
	}
}

func hex64() string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = "0123456789abcdef"[i%16]
	}
	return string(b)
}

func TestPodAndControllerDefaults(t *testing.T) {
	f := newFixture(t)
	p := pod("p", "a")
	p.Spec.Containers[0].Resources.Limits = resources("1", "1Gi")
	p = must(f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}))(t)
	if !reflect.DeepEqual(p.Spec.Containers[0].Resources.Requests, resources("1", "1Gi")) || p.Spec.EnableServiceLinks == nil || !*p.Spec.EnableServiceLinks {
		t.Fatalf("pod defaults: requests %v enableServiceLinks %v", p.Spec.Containers[0].Resources.Requests, p.Spec.EnableServiceLinks)
	}

	tpl := podTemplate("rc", "nginx:1")
	rc := must(f.client.CoreV1().ReplicationControllers("default").Create(ctx, &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "rc"}, Spec: corev1.ReplicationControllerSpec{Template: &tpl},
	}, metav1.CreateOptions{}))(t)
	if *rc.Spec.Replicas != 1 || rc.Spec.Selector["app"] != "rc" || rc.Labels["app"] != "rc" || rc.Spec.Template.Spec.DNSPolicy != corev1.DNSClusterFirst {
		t.Fatalf("replication controller defaults: %+v labels %v", rc.Spec, rc.Labels)
	}

	ns := must(f.client.CoreV1().Namespaces().Get(ctx, "kube-system", metav1.GetOptions{}))(t)
	if ns.Labels[corev1.LabelMetadataName] != "kube-system" || ns.Status.Phase != corev1.NamespaceActive {
		t.Fatalf("namespace defaults: %+v", ns)
	}
	rs := replicaSet("rs", 0)
	rs.Spec.Replicas = nil
	if got := must(f.client.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}))(t); *got.Spec.Replicas != 1 {
		t.Fatalf("replica set replicas default %d", *got.Spec.Replicas)
	}
}

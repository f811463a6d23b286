package perform_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/embedded"
	"rollscope/engine/perform"
	"rollscope/model/action"
	"rollscope/model/kind"
)

// A scale of the embedded cluster past the memory this process has left
// is refused before anything is sent, in words naming the counts; one it
// can hold is not, nor any on a cluster elsewhere, which holds its own pods.
func TestScaleOfTheEmbeddedClusterFitsInItsProcess(t *testing.T) {
	if embedded.MemoryAvailable() == 0 {
		t.Skip("this machine's available memory cannot be read")
	}
	c, _ := memCluster(t, web())
	embeddedCluster := perform.New(perform.Config{Client: c, Room: embedded.Room, InProcess: true})
	elsewhere := perform.New(perform.Config{Client: c, Room: embedded.Room})
	scale := func(n int32) action.Request {
		return action.Request{Action: action.Scale, Namespace: "default", Name: "web", Replicas: n}
	}
	err := embeddedCluster.Check(scale(math.MaxInt32))
	if err == nil || !strings.HasPrefix(err.Error(), "cannot scale deployment/web from 2 to 2147483647 replicas in the embedded cluster, which runs in this process: 2147483645 more replicas need about ") {
		t.Errorf("scale to 2147483647 on the embedded cluster: %v", err)
	}
	if err == nil || !strings.HasSuffix(err.Error(), " — ask for fewer") {
		t.Errorf("the refusal does not say what to do: %v", err)
	}
	if _, err := embeddedCluster.Send(context.Background(), scale(math.MaxInt32)); err == nil {
		t.Error("the refused scale was sent")
	}
	if err := embeddedCluster.Check(scale(50)); err != nil {
		t.Errorf("scale to 50 on the embedded cluster: %v", err)
	}
	if err := elsewhere.Check(scale(math.MaxInt32)); err != nil {
		t.Errorf("scale to 2147483647 on a cluster elsewhere: %v", err)
	}
}

// A rollout of the embedded cluster brings up its surge beside the pods it
// runs (maxSurge, 25 % unless set): one whose surge this process has not
// the memory left for is refused before anything is sent, saying what to
// change; one without a surge, or on a cluster elsewhere, is not.
func TestARolloutOfTheEmbeddedClusterFitsInItsProcess(t *testing.T) {
	if embedded.MemoryAvailable() == 0 {
		t.Skip("this machine's available memory cannot be read")
	}
	big := web()
	big.Spec.Replicas = ptrTo(int32(50_000_000))
	setImage := action.Request{Action: action.SetImage, Namespace: "default", Name: "web", Container: "app", Image: "a:2"}
	c, _ := memCluster(t, big)
	embeddedCluster := perform.New(perform.Config{Client: c, Room: embedded.Room, InProcess: true})
	err := embeddedCluster.Check(setImage)
	if err == nil || !strings.HasPrefix(err.Error(), "rolling deployment/web brings up to 12500000 pods more at once in the embedded cluster, which runs in this process: 12500000 more replicas need about ") ||
		!strings.HasSuffix(err.Error(), " — lower its maxSurge or scale it down first") {
		t.Errorf("set image on 50,000,000 replicas at maxSurge 25%%: %v", err)
	}
	if _, err := embeddedCluster.Send(context.Background(), setImage); err == nil {
		t.Error("the refused set image was sent")
	}
	if d, err := c.AppsV1().Deployments("default").Get(context.Background(), "web", metav1.GetOptions{}); err != nil || d.Spec.Template.Spec.Containers[0].Image != "a:1" {
		t.Errorf("after the refusal the Deployment runs %v (%v)", d.Spec.Template.Spec.Containers, err)
	}
	elsewhere := perform.New(perform.Config{Client: c, Room: embedded.Room})
	if err := elsewhere.Check(setImage); err != nil {
		t.Errorf("the same set image on a cluster elsewhere: %v", err)
	}
	// Without a surge the rollout replaces pods it holds already.
	noSurge := big.DeepCopy()
	zero, quarter := intstr.FromInt32(0), intstr.FromString("25%")
	noSurge.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &zero, MaxUnavailable: &quarter}}
	c, _ = memCluster(t, noSurge)
	embeddedCluster = perform.New(perform.Config{Client: c, Room: embedded.Room, InProcess: true})
	if err := embeddedCluster.Check(setImage); err != nil {
		t.Errorf("set image on 50,000,000 replicas at maxSurge 0: %v", err)
	}
}

// A forecast's rehearsal runs in this process whichever cluster the console
// shows: one of more replicas than fit is not attempted (the console was
// killed for want of memory while it showed "working out"), and the line
// says the scale can still be sent.
func TestForecastOfAScalePastTheProcesssMemorySaysSo(t *testing.T) {
	if embedded.MemoryAvailable() == 0 {
		t.Skip("this machine's available memory cannot be read")
	}
	c, _ := memCluster(t)
	stsScale, _ := action.OfVerb(kind.StatefulSet, kind.Scale)
	cl := perform.New(perform.Config{Client: c, Room: embedded.Room, Rehearsal: rehearsal})
	_, err := cl.Forecast(context.Background(), action.Request{Action: stsScale, Namespace: "shop", Name: "db", Replicas: 50_000_000})
	if err == nil || !strings.HasPrefix(err.Error(), "a rehearsal of 50000000 replicas does not fit in this process: 50000000 more replicas need about 1126.4 GB of memory") ||
		!strings.HasSuffix(err.Error(), " — y still sends it") {
		t.Errorf("forecast of a StatefulSet scaled to 50,000,000: %v", err)
	}
	// A set image rehearses the workload's own replicas: a Deployment of
	// 50,000,000 is not rehearsed either, one of 2 is.
	big := web()
	big.Spec.Replicas = ptrTo(int32(50_000_000))
	c, _ = memCluster(t, big)
	cl = perform.New(perform.Config{Client: c, Room: embedded.Room, Rehearsal: rehearsal})
	setImage := action.Request{Action: action.SetImage, Namespace: "default", Name: "web", Container: "app", Image: "a:2"}
	if _, err := cl.Forecast(context.Background(), setImage); err == nil || !strings.HasPrefix(err.Error(), "a rehearsal of 50000000 replicas and the 12500000 pods of its surge does not fit in this process") {
		t.Errorf("forecast of a set image on 50,000,000 replicas: %v", err)
	}
	c, _ = memCluster(t, web())
	cl = perform.New(perform.Config{Client: c, Room: embedded.Room, Rehearsal: rehearsal})
	if _, err := cl.Forecast(context.Background(), setImage); err != nil {
		t.Errorf("forecast of a set image on 2 replicas: %v", err)
	}
}

func ptrTo[T any](v T) *T { return &v }

// A forecast that runs past its deadline (the console gives it 30 s) says
// it was stopped and that the action can still be sent, not "context
// deadline exceeded".
func TestForecastPastItsDeadlineSaysItWasStopped(t *testing.T) {
	c, _ := memCluster(t, web())
	cl := perform.New(perform.Config{Client: c, Rehearsal: rehearsal})
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	setImage := action.Request{Action: action.SetImage, Namespace: "default", Name: "web", Container: "app", Image: "a:2"}
	_, err := cl.Forecast(ctx, setImage)
	if err == nil || !strings.HasPrefix(err.Error(), "the rehearsal was stopped after ") || !strings.HasSuffix(err.Error(), ", before it ended — y still sends it") {
		t.Errorf("forecast past its deadline: %v", err)
	}
	if _, err := cl.Forecast(context.Background(), setImage); err != nil {
		t.Errorf("the same forecast with time to run: %v", err)
	}
}

// A ReplicationController's rolling update on the embedded cluster is
// planned only when this process has the memory for its surge.
func TestAnRCUpdateOfTheEmbeddedClusterFitsInItsProcess(t *testing.T) {
	if embedded.MemoryAvailable() == 0 {
		t.Skip("this machine's available memory cannot be read")
	}
	big := frontendRC()
	big.Spec.Replicas = ptrTo(int32(50_000_000))
	c, _ := memCluster(t, big)
	p := perform.New(perform.Config{Client: c, Room: embedded.Room, InProcess: true})
	in := action.RCUpdateInput{Name: "frontend", Image: "a:2", MaxSurge: "100%", MaxUnavailable: "0", UpdatePeriod: "1m"}
	_, err := p.PlanRCUpdate(context.Background(), "default", in)
	if err == nil || !strings.HasPrefix(err.Error(), "rolling replicationcontroller/frontend brings up to 50000000 pods more at once in the embedded cluster") {
		t.Errorf("an update at maxSurge 100%% of 50,000,000 pods: %v", err)
	}
	in.MaxSurge, in.MaxUnavailable = "0", "1"
	if _, err := p.PlanRCUpdate(context.Background(), "default", in); err != nil {
		t.Errorf("the same update at maxSurge 0: %v", err)
	}
}

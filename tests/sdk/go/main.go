// Command floe-go-sdk-test drives a running Floe server with the AWS SDK for Go v2, configured as
// its developer guide shows for a custom endpoint: the endpoint from AWS_ENDPOINT_URL (read by
// config.LoadDefaultConfig into BaseEndpoint) and static credentials. It calls every operation of
// the S3 Tables model with realistic input and checks every member of each typed output; puts,
// gets and uploads in parts into a table's warehouse over S3; and creates a CloudFormation stack
// of the five AWS::S3Tables types, waited on with the SDK's own waiter.
//
// It is not a unit test of the SDK and it does not start a server: tests/e2e/sdk/84-go-sdk.py builds
// it, starts Floe (once as is, once with --strict-signatures) and runs it. It prints one line per
// difference from AWS, naming the operation and the field, and exits 1 if there was any.
package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3tables"
)

const (
	region = "us-east-1"
	// The account of every request: the access keys the driver uses are not 12-digit account
	// numbers, so Floe acts in its default account, as AWS acts in the key's own account.
	account = "000000000000"
)

// run holds the clients and what earlier steps created for later ones.
type run struct {
	ctx     context.Context
	started time.Time
	c       *checker
	tables  *s3tables.Client
	s3      *s3.Client
	cfn     *cloudformation.Client
}

func main() {
	if os.Getenv("AWS_ENDPOINT_URL") == "" {
		fmt.Fprintln(os.Stderr, "usage: AWS_ENDPOINT_URL=http://127.0.0.1:PORT AWS_ACCESS_KEY_ID=... AWS_SECRET_ACCESS_KEY=... floe-go-sdk-test")
		os.Exit(2)
	}
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx,
		config.WithRegion(region),
		config.WithCredentialsProvider(credentials.NewStaticCredentialsProvider(
			os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"), "")),
		// A retried call would hide a first answer that was wrong.
		config.WithRetryMaxAttempts(1))
	if err != nil {
		fmt.Fprintln(os.Stderr, "loading the SDK configuration:", err)
		os.Exit(2)
	}
	r := &run{
		ctx:     ctx,
		started: time.Now(),
		c:       &checker{},
		tables:  s3tables.NewFromConfig(cfg),
		// Path-style addressing, as the S3 guide shows for an endpoint that is not AWS's.
		s3:  s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true }),
		cfn: cloudformation.NewFromConfig(cfg),
	}
	steps := []struct {
		name string
		fn   func()
	}{
		{"table buckets", r.tableBuckets},
		{"namespaces and tables", r.namespacesAndTables},
		{"S3 in a table's warehouse", r.warehouseObjects},
		{"CloudFormation", r.cloudFormation},
	}
	for _, step := range steps {
		fmt.Printf("--- %s\n", step.name)
		step.fn()
	}
	fmt.Printf("%d checks passed, %d failed (%s)\n", r.c.checks, r.c.failures, strings.TrimSpace(os.Getenv("FLOE_SDK_RUN")))
	if r.c.failures > 0 {
		os.Exit(1)
	}
}

func bucketARN(name string) string {
	return fmt.Sprintf("arn:aws:s3tables:%s:%s:bucket/%s", region, account, name)
}

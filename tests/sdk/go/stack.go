// CloudFormation: a stack of the five AWS::S3Tables types, created with CreateStack and waited on
// with the SDK's StackCreateCompleteWaiter, its outputs and resources checked and the resources
// read back through S3 Tables, then deleted with StackDeleteCompleteWaiter.
package main

import (
	"regexp"
	"sort"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	cfntypes "github.com/aws/aws-sdk-go-v2/service/cloudformation/types"
	"github.com/aws/aws-sdk-go-v2/service/s3tables"
)

const (
	stackName = "go-sdk-lake"
	// The waiters poll at least this often; their defaults (30 s and up) suit AWS's pace.
	waiterMinDelay = 1 * time.Second
	waiterMaxDelay = 5 * time.Second
	waiterMaxWait  = 3 * time.Minute
)

const stackTemplate = `AWSTemplateFormatVersion: "2010-09-09"
Description: The five S3 Tables resource types, from the AWS SDK for Go
Parameters:
  BucketName:
    Type: String
Resources:
  Bucket:
    Type: AWS::S3Tables::TableBucket
    Properties:
      TableBucketName: !Ref BucketName
  Ns:
    Type: AWS::S3Tables::Namespace
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: web
  Tbl:
    Type: AWS::S3Tables::Table
    DependsOn: Ns
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      Namespace: web
      TableName: page_views
      OpenTableFormat: ICEBERG
      IcebergMetadata:
        IcebergSchema:
          SchemaFieldList:
            - {Name: view_id, Type: long, Required: true}
            - {Name: url, Type: string}
  BucketPolicy:
    Type: AWS::S3Tables::TableBucketPolicy
    Properties:
      TableBucketARN: !GetAtt Bucket.TableBucketARN
      ResourcePolicy:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"}
            Action: ["s3tables:GetTable"]
            Resource: !Sub "${Bucket.TableBucketARN}/table/*"
  TblPolicy:
    Type: AWS::S3Tables::TablePolicy
    Properties:
      TableARN: !GetAtt Tbl.TableARN
      ResourcePolicy:
        Version: "2012-10-17"
        Statement:
          - Effect: Allow
            Principal: {AWS: !Sub "arn:aws:iam::${AWS::AccountId}:root"}
            Action: ["s3tables:GetTableData"]
            Resource: !GetAtt Tbl.TableARN
Outputs:
  BucketArn:
    Value: !GetAtt Bucket.TableBucketARN
  TableArn:
    Value: !GetAtt Tbl.TableARN
  Warehouse:
    Value: !GetAtt Tbl.WarehouseLocation
`

var stackIDPattern = regexp.MustCompile(`^arn:aws:cloudformation:us-east-1:` + account + `:stack/` + stackName + `/[0-9a-f-]{36}$`)

func (r *run) cloudFormation() {
	const op = "CreateStack"
	created, err := r.cfn.CreateStack(r.ctx, &cloudformation.CreateStackInput{
		StackName:    aws.String(stackName),
		TemplateBody: aws.String(stackTemplate),
		Parameters:   []cfntypes.Parameter{{ParameterKey: aws.String("BucketName"), ParameterValue: aws.String("go-stack")}},
	})
	r.c.must(op, err)
	stackID := r.c.match(op, "StackId", created.StackId, stackIDPattern)

	waiter := cloudformation.NewStackCreateCompleteWaiter(r.cfn, func(o *cloudformation.StackCreateCompleteWaiterOptions) {
		o.MinDelay, o.MaxDelay = waiterMinDelay, waiterMaxDelay
	})
	described, err := waiter.WaitForOutput(r.ctx, &cloudformation.DescribeStacksInput{StackName: aws.String(stackName)}, waiterMaxWait)
	r.c.must("StackCreateCompleteWaiter", err)
	if len(described.Stacks) != 1 {
		r.c.fail("DescribeStacks", "Stacks", "got %d stacks, want 1", len(described.Stacks))
		return
	}
	stack := described.Stacks[0]
	r.c.str("DescribeStacks", "StackId", stack.StackId, stackID)
	r.c.str("DescribeStacks", "StackName", stack.StackName, stackName)
	r.c.equal("DescribeStacks", "StackStatus", stack.StackStatus, cfntypes.StackStatusCreateComplete)
	outputs := map[string]string{}
	for _, o := range stack.Outputs {
		outputs[aws.ToString(o.OutputKey)] = aws.ToString(o.OutputValue)
	}
	bucket := bucketARN("go-stack")
	r.c.equal("DescribeStacks", "Outputs.BucketArn", outputs["BucketArn"], bucket)
	r.c.equal("DescribeStacks", "Outputs.TableArn matches", regexp.MustCompile(`^`+regexp.QuoteMeta(bucket)+`/table/[0-9a-f-]{36}$`).MatchString(outputs["TableArn"]), true)
	r.c.equal("DescribeStacks", "Outputs.Warehouse matches", warehousePattern.MatchString(outputs["Warehouse"]), true)

	resources, err := r.cfn.DescribeStackResources(r.ctx, &cloudformation.DescribeStackResourcesInput{StackName: aws.String(stackName)})
	r.c.must("DescribeStackResources", err)
	var kinds []string
	for _, res := range resources.StackResources {
		kinds = append(kinds, aws.ToString(res.ResourceType))
		name := aws.ToString(res.LogicalResourceId)
		r.c.equal("DescribeStackResources", "StackResources["+name+"].ResourceStatus", res.ResourceStatus, cfntypes.ResourceStatusCreateComplete)
		r.c.match("DescribeStackResources", "StackResources["+name+"].PhysicalResourceId", res.PhysicalResourceId, tokenPattern)
	}
	sort.Strings(kinds)
	r.c.equal("DescribeStackResources", "StackResources[].ResourceType", kinds, []string{
		"AWS::S3Tables::Namespace", "AWS::S3Tables::Table", "AWS::S3Tables::TableBucket",
		"AWS::S3Tables::TableBucketPolicy", "AWS::S3Tables::TablePolicy"})

	table, err := r.tables.GetTable(r.ctx, &s3tables.GetTableInput{TableArn: aws.String(outputs["TableArn"])})
	r.c.must("GetTable of the stack's table", err)
	r.c.str("GetTable of the stack's table", "name", table.Name, "page_views")
	r.c.equal("GetTable of the stack's table", "namespace", table.Namespace, []string{"web"})
	r.c.str("GetTable of the stack's table", "warehouseLocation", table.WarehouseLocation, outputs["Warehouse"])
	_, err = r.tables.GetTableBucketPolicy(r.ctx, &s3tables.GetTableBucketPolicyInput{TableBucketARN: aws.String(bucket)})
	r.c.must("GetTableBucketPolicy of the stack's bucket", err)
	_, err = r.tables.GetTablePolicy(r.ctx, &s3tables.GetTablePolicyInput{
		TableBucketARN: aws.String(bucket), Namespace: aws.String("web"), Name: aws.String("page_views")})
	r.c.must("GetTablePolicy of the stack's table", err)

	_, err = r.cfn.DeleteStack(r.ctx, &cloudformation.DeleteStackInput{StackName: aws.String(stackName)})
	r.c.must("DeleteStack", err)
	deleted := cloudformation.NewStackDeleteCompleteWaiter(r.cfn, func(o *cloudformation.StackDeleteCompleteWaiterOptions) {
		o.MinDelay, o.MaxDelay = waiterMinDelay, waiterMaxDelay
	})
	r.c.must("StackDeleteCompleteWaiter", deleted.Wait(r.ctx, &cloudformation.DescribeStacksInput{StackName: aws.String(stackID)}, waiterMaxWait))
	_, err = r.tables.GetTableBucket(r.ctx, &s3tables.GetTableBucketInput{TableBucketARN: aws.String(bucket)})
	r.c.errorCode("GetTableBucket after DeleteStack", err, "NotFoundException", 404)
}

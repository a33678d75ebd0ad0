// The CDK app of tests/e2e/cloudformation/82-cloudformation-cdk.py: one stack of the five S3 Tables L1 constructs,
// synthesized with LegacyStackSynthesizer so that `cdk deploy` needs no bootstrap stack (no
// BootstrapVersion SSM parameter, no asset bucket, no roles to assume through STS). Plain ESM
// JavaScript, run by `node app.mjs` (cdk.json), so the test needs no TypeScript build.
//
// Context `floe:revision` (default 1) changes properties between two deploys, so the second
// `cdk deploy` is an update through a change set: revision 2 turns the table's compaction
// target file size from 256 to 512 MB and lets the bucket policy grant one more action.
import { App, LegacyStackSynthesizer, Stack } from 'aws-cdk-lib';
import {
  CfnNamespace, CfnTable, CfnTableBucket, CfnTableBucketPolicy, CfnTablePolicy,
} from 'aws-cdk-lib/aws-s3tables';

const app = new App();
const revision = Number(app.node.tryGetContext('floe:revision') ?? '1');
const stack = new Stack(app, 'FloeCdkStack', {
  synthesizer: new LegacyStackSynthesizer(),
  description: 'Floe e2e: the five AWS::S3Tables types from the AWS CDK',
});

const bucket = new CfnTableBucket(stack, 'Bucket', {
  tableBucketName: 'cdk-bucket',
  unreferencedFileRemoval: { status: 'Enabled', unreferencedDays: 4, noncurrentDays: 10 },
});

const namespace = new CfnNamespace(stack, 'Namespace', {
  tableBucketArn: bucket.attrTableBucketArn,
  namespace: 'cdk_ns',
});

const table = new CfnTable(stack, 'Table', {
  tableBucketArn: bucket.attrTableBucketArn,
  namespace: namespace.namespace,
  tableName: 'events',
  openTableFormat: 'ICEBERG',
  icebergMetadata: {
    icebergSchema: {
      schemaFieldList: [
        { name: 'id', type: 'long', required: true },
        { name: 'body', type: 'string' },
      ],
    },
  },
  compaction: { status: 'enabled', targetFileSizeMb: revision >= 2 ? 512 : 256 },
});
table.addResourceDependency(namespace);

const bucketActions = ['s3tables:GetTable'];
if (revision >= 2) {
  bucketActions.push('s3tables:ListTables');
}
new CfnTableBucketPolicy(stack, 'BucketPolicy', {
  tableBucketArn: bucket.attrTableBucketArn,
  resourcePolicy: {
    Version: '2012-10-17',
    Statement: [{
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${stack.account}:root` },
      Action: bucketActions,
      Resource: `${bucket.attrTableBucketArn}/table/*`,
    }],
  },
});

new CfnTablePolicy(stack, 'TablePolicy', {
  tableArn: table.attrTableArn,
  resourcePolicy: {
    Version: '2012-10-17',
    Statement: [{
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${stack.account}:root` },
      Action: ['s3tables:GetTableData'],
      Resource: table.attrTableArn,
    }],
  },
});

app.synth();

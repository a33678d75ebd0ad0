// The S3 data plane with the AWS SDK for JavaScript v3 (@aws-sdk/client-s3): streamed uploads
// (aws-chunked with a trailing checksum), Buffer uploads with x-amz-checksum-crc32, ranged and
// checksum-validated downloads, listings, batch deletes and multipart uploads.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';

import { Crc64Nvme } from '@aws-sdk/checksums/crc';
import {
  CompleteMultipartUploadCommand, CopyObjectCommand, CreateBucketCommand, CreateMultipartUploadCommand, DeleteObjectsCommand,
  GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, paginateListObjectsV2, PutObjectCommand, S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';

import { FloeServer, clientConfig } from '../floe_server.mjs';

const MIB = 1024 * 1024;
const md5 = (data) => createHash('md5').update(data).digest('hex');

function crc32Base64(data) {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  const out = Buffer.alloc(4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return out.toString('base64');
}

/** CRC64/NVME as the SDK computes it (its own JavaScript implementation), in base64. */
async function crc64NvmeBase64(data) {
  const crc = new Crc64Nvme();
  crc.update(data);
  return Buffer.from(await crc.digest()).toString('base64');
}

/** A Readable that yields `data` in pieces, as a file or network stream would. */
function streamOf(data, pieceSize) {
  const pieces = [];
  for (let i = 0; i < data.length; i += pieceSize) pieces.push(data.subarray(i, i + pieceSize));
  return Readable.from(pieces);
}

describe('S3 with @aws-sdk/client-s3', () => {
  let floe;
  let s3;
  const requests = [];

  before(async () => {
    floe = await new FloeServer().start();
    s3 = new S3Client({ ...clientConfig(floe), forcePathStyle: true, maxAttempts: 1 });
    s3.middlewareStack.add((next) => async (args) => {
      requests.push(args.request);
      return next(args);
    }, { step: 'finalizeRequest', name: 'recordRequests' });
    await s3.send(new CreateBucketCommand({ Bucket: 'js-bucket' }));
  });

  after(async () => {
    s3?.destroy();
    await floe?.cleanup();
  });

  it('stores a Readable stream sent aws-chunked with a trailing checksum', async () => {
    const data = Buffer.alloc(3 * MIB + 12345, 'streamed ');
    requests.length = 0;
    const put = await s3.send(new PutObjectCommand({
      Bucket: 'js-bucket', Key: 'stream.bin', Body: streamOf(data, 64 * 1024), ContentLength: data.length,
    }));
    const sent = requests[0].headers;
    assert.match(sent['content-encoding'] ?? '', /aws-chunked/, 'the SDK framed the stream as aws-chunked');
    assert.equal(sent['x-amz-trailer'], 'x-amz-checksum-crc32', 'with a CRC32 trailer');
    assert.equal(put.ETag, `"${md5(data)}"`, 'the ETag is the MD5 of the decoded payload');
    assert.equal(put.ChecksumCRC32, crc32Base64(data), 'Floe verified and echoes the trailing CRC32');
    const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'stream.bin' }));
    const back = Buffer.from(await got.Body.transformToByteArray());
    assert.equal(md5(back), md5(data), 'the object reads back as the stream that was sent');
    const head = await s3.send(new HeadObjectCommand({ Bucket: 'js-bucket', Key: 'stream.bin' }));
    assert.equal(head.ContentEncoding, undefined, 'aws-chunked is framing, not the object\'s Content-Encoding');
  });

  it('stores a Buffer body with x-amz-checksum-crc32', async () => {
    const data = Buffer.from('buffer body '.repeat(1000));
    requests.length = 0;
    const put = await s3.send(new PutObjectCommand({
      Bucket: 'js-bucket', Key: 'buffer.txt', Body: data, ChecksumAlgorithm: 'CRC32', ContentType: 'text/plain',
      Metadata: { origin: 'js' },
    }));
    assert.equal(requests[0].headers['x-amz-checksum-crc32'], crc32Base64(data), 'the SDK sent the CRC32 header');
    assert.equal(put.ChecksumCRC32, crc32Base64(data), 'Floe echoes the CRC32 it verified');
    assert.equal(put.ChecksumType, 'FULL_OBJECT', 'a PutObject checksum is of the FULL_OBJECT type, as S3 says');
    const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'buffer.txt', ChecksumMode: 'ENABLED' }));
    assert.equal(got.ChecksumCRC32, crc32Base64(data), 'GetObject returns the stored checksum, which the SDK validated');
    assert.equal(got.ChecksumType, 'FULL_OBJECT', 'and its FULL_OBJECT type');
    assert.equal(got.ContentType, 'text/plain', 'Content-Type round-trips');
    assert.deepEqual(got.Metadata, { origin: 'js' }, 'user metadata round-trips');
    assert.equal(await got.Body.transformToString(), data.toString(), 'the body is intact');
  });

  it('refuses a wrong checksum with BadDigest', async () => {
    await assert.rejects(
      s3.send(new PutObjectCommand({
        Bucket: 'js-bucket', Key: 'bad-crc', Body: Buffer.from('abc'), ChecksumCRC32: crc32Base64(Buffer.from('xyz')),
      })),
      (err) => err.name === 'BadDigest' && err.$metadata.httpStatusCode === 400,
      'a CRC32 that does not match the body is BadDigest',
    );
  });

  it('serves ranged GetObject requests', async () => {
    const data = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251));
    await s3.send(new PutObjectCommand({ Bucket: 'js-bucket', Key: 'ranged.bin', Body: data }));
    const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'ranged.bin', Range: 'bytes=100-199' }));
    assert.equal(got.$metadata.httpStatusCode, 206, 'a range answers 206');
    assert.equal(got.ContentRange, 'bytes 100-199/4096', 'Content-Range names the bytes and the size');
    assert.deepEqual(Buffer.from(await got.Body.transformToByteArray()), data.subarray(100, 200), 'exactly those bytes');
    const tail = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'ranged.bin', Range: 'bytes=-10' }));
    assert.deepEqual(Buffer.from(await tail.Body.transformToByteArray()), data.subarray(4086), 'a suffix range');
    await assert.rejects(
      s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'ranged.bin', Range: 'bytes=5000-' })),
      (err) => err.name === 'InvalidRange' && err.$metadata.httpStatusCode === 416,
      'a range past the end is InvalidRange (416)',
    );
  });

  it('lists with ListObjectsV2, delimiters and pages', async () => {
    await s3.send(new CreateBucketCommand({ Bucket: 'js-list' }));
    const keys = Array.from({ length: 25 }, (_, i) => `logs/${String(i).padStart(3, '0')}.log`);
    await Promise.all([...keys, 'top.txt', 'docs/readme.md'].map((Key) =>
      s3.send(new PutObjectCommand({ Bucket: 'js-list', Key, Body: Key }))));
    const root = await s3.send(new ListObjectsV2Command({ Bucket: 'js-list', Delimiter: '/' }));
    assert.deepEqual(root.Contents.map((o) => o.Key), ['top.txt'], 'the top level has one key');
    assert.deepEqual(root.CommonPrefixes.map((p) => p.Prefix), ['docs/', 'logs/'], 'and two common prefixes');
    const seen = [];
    let pages = 0;
    for await (const page of paginateListObjectsV2({ client: s3, pageSize: 10 }, { Bucket: 'js-list', Prefix: 'logs/' })) {
      pages += 1;
      seen.push(...page.Contents.map((o) => o.Key));
    }
    assert.equal(pages, 3, '25 keys at 10 a page take 3 pages');
    assert.deepEqual(seen, keys, 'the paginator sees every key once, in order');
  });

  it('deletes a batch with DeleteObjects', async () => {
    await s3.send(new PutObjectCommand({ Bucket: 'js-bucket', Key: 'batch/a', Body: 'a' }));
    const resp = await s3.send(new DeleteObjectsCommand({
      Bucket: 'js-bucket', Delete: { Objects: [{ Key: 'batch/a' }, { Key: 'batch/missing' }] },
    }));
    assert.deepEqual(resp.Deleted.map((d) => d.Key).sort(), ['batch/a', 'batch/missing'], 'both keys are deleted');
    await assert.rejects(s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'batch/a' })),
      (err) => err.name === 'NoSuchKey', 'a deleted key is NoSuchKey');
  });

  it('completes a multipart upload', async () => {
    const parts = [Buffer.alloc(5 * MIB, 'p1'), Buffer.from('last part')];
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'js-bucket', Key: 'multi.bin' }));
    const done = [];
    for (const [i, Body] of parts.entries()) {
      const r = await s3.send(new UploadPartCommand({ Bucket: 'js-bucket', Key: 'multi.bin', UploadId, PartNumber: i + 1, Body }));
      done.push({ PartNumber: i + 1, ETag: r.ETag, ChecksumCRC32: r.ChecksumCRC32 });
    }
    const resp = await s3.send(new CompleteMultipartUploadCommand({
      Bucket: 'js-bucket', Key: 'multi.bin', UploadId, MultipartUpload: { Parts: done },
    }));
    const expected = md5(Buffer.concat(parts.map((p) => createHash('md5').update(p).digest()))) + '-2';
    assert.equal(resp.ETag, `"${expected}"`, 'the ETag is the MD5 of the part MD5s, then -2');
    const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'multi.bin' }));
    assert.equal(md5(Buffer.from(await got.Body.transformToByteArray())), md5(Buffer.concat(parts)),
      'the object is the parts in order');
  });

  it('gives a CRC32 multipart upload a COMPOSITE checksum', async () => {
    const parts = [Buffer.alloc(5 * MIB, 'c1'), Buffer.from('crc part')];
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({
      Bucket: 'js-bucket', Key: 'multi-crc.bin', ChecksumAlgorithm: 'CRC32',
    }));
    const done = [];
    for (const [i, Body] of parts.entries()) {
      const r = await s3.send(new UploadPartCommand({
        Bucket: 'js-bucket', Key: 'multi-crc.bin', UploadId, PartNumber: i + 1, Body, ChecksumAlgorithm: 'CRC32',
      }));
      done.push({ PartNumber: i + 1, ETag: r.ETag, ChecksumCRC32: r.ChecksumCRC32 });
    }
    const resp = await s3.send(new CompleteMultipartUploadCommand({
      Bucket: 'js-bucket', Key: 'multi-crc.bin', UploadId, MultipartUpload: { Parts: done },
    }));
    assert.match(resp.ChecksumCRC32, /^[A-Za-z0-9+/]{6}==-2$/, 'the checksum is a checksum of the 2 parts\' checksums');
    assert.equal(resp.ChecksumType, 'COMPOSITE', 'CompleteMultipartUpload names its type COMPOSITE');
    const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'multi-crc.bin', ChecksumMode: 'ENABLED' }));
    assert.equal(got.ChecksumType, 'COMPOSITE', 'and GetObject reports the same type');
    await got.Body.transformToByteArray();
  });

  describe('S3\'s default checksum, CRC64NVME', () => {
    let plain; // a client that sends no checksum unless an operation requires one
    before(() => {
      plain = new S3Client({ ...clientConfig(floe), forcePathStyle: true, maxAttempts: 1, requestChecksumCalculation: 'WHEN_REQUIRED' });
    });
    after(() => plain?.destroy());

    it('gives an upload without a checksum a FULL_OBJECT CRC64NVME, as S3 does', async () => {
      const data = Buffer.from('no checksum sent '.repeat(500));
      const put = await plain.send(new PutObjectCommand({ Bucket: 'js-bucket', Key: 'default-crc.txt', Body: data }));
      assert.equal(put.ChecksumCRC32, undefined, 'the SDK sent no checksum of its own');
      assert.equal(put.ChecksumCRC64NVME, await crc64NvmeBase64(data), 'PutObject answers the CRC64NVME S3 added');
      assert.equal(put.ChecksumType, 'FULL_OBJECT', 'of the FULL_OBJECT type');
      const head = await plain.send(new HeadObjectCommand({ Bucket: 'js-bucket', Key: 'default-crc.txt', ChecksumMode: 'ENABLED' }));
      assert.equal(head.ChecksumCRC64NVME, await crc64NvmeBase64(data), 'HeadObject reports it');
      assert.equal(head.ChecksumType, 'FULL_OBJECT', 'and its type');
      const got = await plain.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'default-crc.txt', ChecksumMode: 'ENABLED' }));
      assert.equal(got.ChecksumCRC64NVME, await crc64NvmeBase64(data), 'GetObject returns it, and the SDK validated the body');
      assert.equal(await got.Body.transformToString(), data.toString());
    });

    it('gives a multipart upload without a checksum a FULL_OBJECT CRC64NVME of the whole object', async () => {
      const parts = [Buffer.alloc(5 * MIB, 'p1'), Buffer.from('the last part')];
      const { UploadId } = await plain.send(new CreateMultipartUploadCommand({ Bucket: 'js-bucket', Key: 'default-multi.bin' }));
      const done = [];
      for (const [i, Body] of parts.entries()) {
        const r = await plain.send(new UploadPartCommand({ Bucket: 'js-bucket', Key: 'default-multi.bin', UploadId, PartNumber: i + 1, Body }));
        done.push({ PartNumber: i + 1, ETag: r.ETag });
      }
      const resp = await plain.send(new CompleteMultipartUploadCommand({
        Bucket: 'js-bucket', Key: 'default-multi.bin', UploadId, MultipartUpload: { Parts: done },
      }));
      const whole = await crc64NvmeBase64(Buffer.concat(parts));
      assert.equal(resp.ChecksumCRC64NVME, whole, 'the checksum is the CRC64NVME of the whole object, with no part count');
      assert.equal(resp.ChecksumType, 'FULL_OBJECT', 'of the FULL_OBJECT type');
      const head = await plain.send(new HeadObjectCommand({ Bucket: 'js-bucket', Key: 'default-multi.bin', ChecksumMode: 'ENABLED' }));
      assert.equal(head.ChecksumCRC64NVME, whole, 'HeadObject reports the same');
    });

    it('makes a CRC64NVME multipart upload FULL_OBJECT, as S3 only allows', async () => {
      const parts = [Buffer.alloc(5 * MIB, 'n1'), Buffer.alloc(5 * MIB, 'n2'), Buffer.from('nvme tail')];
      const created = await s3.send(new CreateMultipartUploadCommand({
        Bucket: 'js-bucket', Key: 'multi-nvme.bin', ChecksumAlgorithm: 'CRC64NVME',
      }));
      assert.equal(created.ChecksumAlgorithm, 'CRC64NVME', 'CreateMultipartUpload names the algorithm');
      assert.equal(created.ChecksumType, 'FULL_OBJECT', 'and its only type, FULL_OBJECT');
      const done = [];
      for (const [i, Body] of parts.entries()) {
        const r = await s3.send(new UploadPartCommand({
          Bucket: 'js-bucket', Key: 'multi-nvme.bin', UploadId: created.UploadId, PartNumber: i + 1, Body,
          ChecksumAlgorithm: 'CRC64NVME',
        }));
        assert.equal(r.ChecksumCRC64NVME, await crc64NvmeBase64(Body), `part ${i + 1}'s CRC64NVME is echoed`);
        done.push({ PartNumber: i + 1, ETag: r.ETag, ChecksumCRC64NVME: r.ChecksumCRC64NVME });
      }
      const complete = (ChecksumCRC64NVME) => s3.send(new CompleteMultipartUploadCommand({
        Bucket: 'js-bucket', Key: 'multi-nvme.bin', UploadId: created.UploadId, MultipartUpload: { Parts: done },
        ChecksumCRC64NVME, ChecksumType: 'FULL_OBJECT',
      }));
      await assert.rejects(complete(await crc64NvmeBase64(Buffer.from('not the object'))),
        (err) => err.name === 'BadDigest' && err.$metadata.httpStatusCode === 400,
        'a full-object checksum sent with CompleteMultipartUpload that is not the object\'s is BadDigest');
      const resp = await complete(await crc64NvmeBase64(Buffer.concat(parts)));
      assert.equal(resp.ChecksumCRC64NVME, await crc64NvmeBase64(Buffer.concat(parts)), 'the checksum is of the whole object');
      assert.equal(resp.ChecksumType, 'FULL_OBJECT', 'CompleteMultipartUpload names its type FULL_OBJECT');
      const got = await s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'multi-nvme.bin', ChecksumMode: 'ENABLED' }));
      assert.equal(got.ChecksumType, 'FULL_OBJECT', 'GetObject reports the same type');
      assert.equal(md5(Buffer.from(await got.Body.transformToByteArray())), md5(Buffer.concat(parts)),
        'and the SDK validated the whole body against it');
    });

    it('refuses a COMPOSITE CRC64NVME multipart upload and a FULL_OBJECT SHA-256 one', async () => {
      for (const [ChecksumAlgorithm, ChecksumType] of [['CRC64NVME', 'COMPOSITE'], ['SHA256', 'FULL_OBJECT']]) {
        await assert.rejects(
          s3.send(new CreateMultipartUploadCommand({ Bucket: 'js-bucket', Key: 'refused', ChecksumAlgorithm, ChecksumType })),
          (err) => err.name === 'InvalidRequest' && err.$metadata.httpStatusCode === 400,
          `${ChecksumType} ${ChecksumAlgorithm} is InvalidRequest`);
      }
    });

    it('gives a CRC32 multipart upload asked for FULL_OBJECT the CRC32 of the whole object', async () => {
      const parts = [Buffer.alloc(5 * MIB, 'f1'), Buffer.from('full crc32 tail')];
      const created = await s3.send(new CreateMultipartUploadCommand({
        Bucket: 'js-bucket', Key: 'multi-crc-full.bin', ChecksumAlgorithm: 'CRC32', ChecksumType: 'FULL_OBJECT',
      }));
      assert.equal(created.ChecksumType, 'FULL_OBJECT', 'CreateMultipartUpload confirms the type');
      const done = [];
      for (const [i, Body] of parts.entries()) {
        const r = await s3.send(new UploadPartCommand({
          Bucket: 'js-bucket', Key: 'multi-crc-full.bin', UploadId: created.UploadId, PartNumber: i + 1, Body,
          ChecksumAlgorithm: 'CRC32',
        }));
        done.push({ PartNumber: i + 1, ETag: r.ETag, ChecksumCRC32: r.ChecksumCRC32 });
      }
      const resp = await s3.send(new CompleteMultipartUploadCommand({
        Bucket: 'js-bucket', Key: 'multi-crc-full.bin', UploadId: created.UploadId, MultipartUpload: { Parts: done },
      }));
      assert.equal(resp.ChecksumCRC32, crc32Base64(Buffer.concat(parts)), 'the checksum is the CRC32 of the whole object');
      assert.equal(resp.ChecksumType, 'FULL_OBJECT');
    });

    it('gives a copy of a COMPOSITE object a FULL_OBJECT CRC64NVME', async () => {
      const copied = await plain.send(new CopyObjectCommand({
        Bucket: 'js-bucket', Key: 'copy-of-multi-crc.bin', CopySource: 'js-bucket/multi-crc.bin',
      }));
      const got = await plain.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'multi-crc.bin' }));
      const whole = await crc64NvmeBase64(Buffer.from(await got.Body.transformToByteArray()));
      assert.equal(copied.CopyObjectResult.ChecksumCRC64NVME, whole, 'CopyObject answers the copy\'s CRC64NVME');
      assert.equal(copied.CopyObjectResult.ChecksumType, 'FULL_OBJECT', 'of the FULL_OBJECT type');
      const head = await plain.send(new HeadObjectCommand({ Bucket: 'js-bucket', Key: 'copy-of-multi-crc.bin', ChecksumMode: 'ENABLED' }));
      assert.equal(head.ChecksumCRC64NVME, whole, 'and HeadObject reports it');
    });

    it('keeps a source\'s FULL_OBJECT checksum in a copy', async () => {
      const copied = await plain.send(new CopyObjectCommand({
        Bucket: 'js-bucket', Key: 'copy-of-buffer.txt', CopySource: 'js-bucket/buffer.txt',
      }));
      assert.ok(copied.CopyObjectResult.ChecksumCRC32, 'the source\'s CRC32 carries over');
      assert.equal(copied.CopyObjectResult.ChecksumCRC64NVME, undefined, 'and no default is added');
      assert.equal(copied.CopyObjectResult.ChecksumType, 'FULL_OBJECT');
    });
  });

  it('names missing buckets and keys with S3 error codes', async () => {
    await assert.rejects(s3.send(new GetObjectCommand({ Bucket: 'js-bucket', Key: 'nope' })),
      (err) => err.name === 'NoSuchKey' && err.$metadata.httpStatusCode === 404, 'a missing key is NoSuchKey');
    await assert.rejects(s3.send(new ListObjectsV2Command({ Bucket: 'js-no-such-bucket' })),
      (err) => err.name === 'NoSuchBucket', 'a missing bucket is NoSuchBucket');
    await assert.rejects(s3.send(new CreateBucketCommand({ Bucket: 'x--table-s3' })),
      (err) => err.name === 'InvalidBucketName', 'a --table-s3 name is InvalidBucketName');
  });
});

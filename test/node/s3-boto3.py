"""boto3 against edgezone's S3 dialect, for test/node/s3-boto3.node.ts.

Usage: s3-boto3.py CASE ARG... with the endpoint, credentials and bucket in the environment
(S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_BUCKET). Prints one JSON object: what
boto3 answered, for the test to assert; an S3 error boto3 raises as ClientError prints as
{"error": {"code", "status"}} instead, so a refusal is asserted like any other answer.

The client is configured as R2's docs configure boto3
(https://developers.cloudflare.com/r2/examples/aws/boto3/): endpoint_url, the two keys and
region_name "auto", nothing else. botocore addresses an http:// endpoint path-style by itself, so
no addressing_style is set: the test shows the docs' configuration works unchanged.
"""

import json
import os
import sys

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.exceptions import ClientError

MiB = 1024 * 1024
BUCKET = os.environ["S3_BUCKET"]

s3 = boto3.client(
    service_name="s3",
    endpoint_url=os.environ["S3_ENDPOINT"],
    aws_access_key_id=os.environ["S3_ACCESS_KEY_ID"],
    aws_secret_access_key=os.environ["S3_SECRET_ACCESS_KEY"],
    region_name="auto",
)


def objects(key, body):
    """put_object with a Content-Type and metadata, then get_object (whole and a range) and head_object."""
    put = s3.put_object(
        Bucket=BUCKET,
        Key=key,
        Body=body.encode(),
        ContentType="text/plain; charset=utf-8",
        Metadata={"owner": "ops", "project": "edgezone"},
    )
    whole = s3.get_object(Bucket=BUCKET, Key=key)
    part = s3.get_object(Bucket=BUCKET, Key=key, Range="bytes=6-9")
    head = s3.head_object(Bucket=BUCKET, Key=key)
    return {
        "put": {"ETag": put["ETag"]},
        "get": {
            "Body": whole["Body"].read().decode(),
            "ContentType": whole["ContentType"],
            "ContentLength": whole["ContentLength"],
            "Metadata": whole["Metadata"],
            "ETag": whole["ETag"],
        },
        "range": {
            "Body": part["Body"].read().decode(),
            "ContentRange": part["ContentRange"],
            "ContentLength": part["ContentLength"],
            "status": part["ResponseMetadata"]["HTTPStatusCode"],
        },
        "head": {
            "ContentType": head["ContentType"],
            "ContentLength": head["ContentLength"],
            "Metadata": head["Metadata"],
            "ETag": head["ETag"],
        },
    }


def get(key):
    """get_object: the body as text."""
    return {"Body": s3.get_object(Bucket=BUCKET, Key=key)["Body"].read().decode()}


def put(key, body):
    """put_object of a text body."""
    return {"ETag": s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode())["ETag"]}


def not_modified(key, body):
    """
    put_object with a SHA-256 checksum, then get_object with its ETag in If-None-Match and
    ChecksumMode ENABLED (what boto3 1.36 and later send on every get_object): S3's 304.
    """
    etag = s3.put_object(Bucket=BUCKET, Key=key, Body=body.encode(), ChecksumAlgorithm="SHA256")["ETag"]
    fresh = s3.get_object(Bucket=BUCKET, Key=key, ChecksumMode="ENABLED")
    cached = s3.get_object(Bucket=BUCKET, Key=key, IfNoneMatch=etag, ChecksumMode="ENABLED")
    return {"ChecksumSHA256": fresh["ChecksumSHA256"], "cached": cached["ResponseMetadata"]["HTTPStatusCode"]}


def list_delimited(prefix):
    """One list_objects_v2 page with Delimiter "/": the keys and the common prefixes."""
    page = s3.list_objects_v2(Bucket=BUCKET, Prefix=prefix, Delimiter="/")
    return {
        "keys": [o["Key"] for o in page.get("Contents", [])],
        "prefixes": [p["Prefix"] for p in page.get("CommonPrefixes", [])],
        "KeyCount": page["KeyCount"],
        "IsTruncated": page["IsTruncated"],
    }


def paginate(prefix, page_size):
    """list_objects_v2's paginator with MaxKeys page_size: the keys of each page."""
    paginator = s3.get_paginator("list_objects_v2")
    pages = paginator.paginate(Bucket=BUCKET, Prefix=prefix, PaginationConfig={"PageSize": int(page_size)})
    return {"pages": [[o["Key"] for o in page.get("Contents", [])] for page in pages]}


def copy(source, destination):
    """copy_object (metadata copied, the default directive), then head_object of the copy."""
    copied = s3.copy_object(Bucket=BUCKET, Key=destination, CopySource={"Bucket": BUCKET, "Key": source})
    head = s3.head_object(Bucket=BUCKET, Key=destination)
    return {
        "ETag": copied["CopyObjectResult"]["ETag"],
        "head": {"ContentType": head["ContentType"], "Metadata": head["Metadata"], "ETag": head["ETag"]},
    }


def delete(*keys):
    """delete_objects (verbose), then which of the keys head_object still finds."""
    answer = s3.delete_objects(Bucket=BUCKET, Delete={"Objects": [{"Key": key} for key in keys]})
    remaining = []
    for key in keys:
        try:
            s3.head_object(Bucket=BUCKET, Key=key)
            remaining.append(key)
        except ClientError as error:
            if error.response["Error"]["Code"] != "404":
                raise
    return {
        "Deleted": sorted(d["Key"] for d in answer.get("Deleted", [])),
        "Errors": answer.get("Errors", []),
        "remaining": remaining,
    }


def transfer(path, prefix, downloaded):
    """
    upload_file and upload_fileobj of the file at path, with a TransferConfig small enough that
    a 12 MiB file goes up in three 5 MiB parts (and comes down in three ranged GETs), then
    download_file of the first to downloaded. Answers the stored ETags.
    """
    config = TransferConfig(multipart_threshold=5 * MiB, multipart_chunksize=5 * MiB)
    s3.upload_file(path, BUCKET, prefix + "upload_file.bin", Config=config)
    with open(path, "rb") as file:
        s3.upload_fileobj(file, BUCKET, prefix + "upload_fileobj.bin", Config=config)
    s3.download_file(BUCKET, prefix + "upload_file.bin", downloaded, Config=config)
    return {
        "upload_file": s3.head_object(Bucket=BUCKET, Key=prefix + "upload_file.bin")["ETag"],
        "upload_fileobj": s3.head_object(Bucket=BUCKET, Key=prefix + "upload_fileobj.bin")["ETag"],
    }


def presign(key):
    """generate_presigned_url for get_object and put_object, five minutes each."""
    params = {"Bucket": BUCKET, "Key": key}
    return {
        "get": s3.generate_presigned_url("get_object", Params=params, ExpiresIn=300),
        "put": s3.generate_presigned_url("put_object", Params=params, ExpiresIn=300),
    }


CASES = {
    "objects": objects,
    "get": get,
    "put": put,
    "not-modified": not_modified,
    "list-delimited": list_delimited,
    "paginate": paginate,
    "copy": copy,
    "delete": delete,
    "transfer": transfer,
    "presign": presign,
}

if __name__ == "__main__":
    case, *args = sys.argv[1:]
    try:
        result = CASES[case](*args)
    except ClientError as error:
        result = {
            "error": {
                "code": error.response["Error"]["Code"],
                "status": error.response["ResponseMetadata"]["HTTPStatusCode"],
            }
        }
    print(json.dumps(result))

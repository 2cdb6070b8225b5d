"""Samples of one thread of a JFR recording, by the first Storm or Whale frame of each stack.

Usage: jfr print --events jdk.ExecutionSample --stack-depth 12 FILE.jfr > samples.txt
       python3 by-thread.py samples.txt Netty-server
Prints the recording's threads by sample count (digits folded to N), then the named thread's samples by frame.
"""
import collections
import re
import sys

text = open(sys.argv[1]).read()
wanted = sys.argv[2]
by_frame = collections.Counter()
by_thread = collections.Counter()
samples = 0
for event in text.split('jdk.ExecutionSample'):
    stack = re.search(r'stackTrace = \[(.*?)\]', event, re.S)
    thread = re.search(r'sampledThread = "([^"]*)"', event)
    if not stack or not thread:
        continue
    name = re.sub(r'\d+', 'N', thread.group(1))[:40]
    by_thread[name] += 1
    if wanted not in name:
        continue
    samples += 1
    frames = [re.sub(r'\s+line:.*', '', line.strip()) for line in stack.group(1).strip().split('\n')
              if line.strip() and not line.strip().startswith('...')]
    first = next((f for f in frames if ('io.whale' in f or 'org.apache.storm' in f) and 'shade' not in f),
                 frames[0] if frames else None)
    by_frame[first] += 1
print(by_thread.most_common(6))
print(samples, 'samples in', wanted)
for frame, count in by_frame.most_common(15):
    print(count, frame)

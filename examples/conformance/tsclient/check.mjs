// check.mjs: the official TypeScript SDK's client against the fixture
// server's typed-output tool, search_issues, whose Go code leaves slices
// and maps nil where nothing matched. The client validates a result's
// structuredContent against the tool's outputSchema (with ajv) and throws
// on a mismatch, as it did when a nil slice went out as null.
//
//	node check.mjs http://127.0.0.1:3001/
//
// It needs @modelcontextprotocol/sdk where Node resolves packages from this
// file (make conformance copies it beside the suite's node_modules, which
// has the SDK the suite depends on). It prints one line per check and
// exits 1 on the first failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { readFileSync } from 'node:fs';

const url = process.argv[2];
if (!url) {
	console.error('usage: node check.mjs URL');
	process.exit(2);
}

// The SDK's version, from its package.json (its exports map does not
// export that file).
const sdk = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.resolve('@modelcontextprotocol/sdk/client/index.js')), 'utf8')).version;
const name = 'search_issues';

function fail(msg) {
	console.log(`FAIL ${msg}`);
	process.exit(1);
}

function isEmptyObject(v) {
	return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

function ok(msg) {
	console.log(`ok   ${msg}`);
}

// call calls the tool and returns its structured content; the client has
// already held it to the output schema (it throws otherwise).
async function call(client, query) {
	let res;
	try {
		res = await client.callTool({ name, arguments: { query } });
	} catch (e) {
		fail(`${name} ${JSON.stringify(query)}: the client refused the result: ${e.message}`);
	}
	if (res.isError) {
		fail(`${name} ${JSON.stringify(query)}: error result: ${res.content.map((c) => c.text).join(' ')}`);
	}
	if (res.structuredContent === undefined) {
		fail(`${name} ${JSON.stringify(query)}: no structuredContent`);
	}
	return res.structuredContent;
}

const client = new Client({ name: 'toolgen-tsclient-check', version: '0.0.0' });
try {
	await client.connect(new StreamableHTTPClientTransport(new URL(url)));
} catch (e) {
	fail(`connect to ${url} (TypeScript SDK ${sdk}): ${e.message}`);
}
try {
	const { tools } = await client.listTools();
	const t = tools.find((t) => t.name === name);
	if (!t) {
		fail(`tools/list has no ${name} (${tools.length} tools)`);
	}
	const props = t.outputSchema?.properties ?? {};
	const issuesType = props.issues?.type;
	const countsType = props.label_counts?.type;
	const labelsType = props.issues?.items?.properties?.labels?.type;
	if (issuesType !== 'array' || countsType !== 'object' || labelsType !== 'array') {
		fail(`${name}'s outputSchema: issues ${issuesType}, label_counts ${countsType}, issues[].labels ${labelsType}; want array, object, array`);
	}
	ok(`TypeScript SDK ${sdk}: tools/list has ${name}, outputSchema issues: array, label_counts: object, issues[].labels: array`);

	// The client's own validator (the class it uses by default) refuses
	// what a nil slice used to be sent as: the checks below are not vacuous.
	const validate = new AjvJsonSchemaValidator().getValidator(t.outputSchema);
	const old = validate({ query: 'x', issues: null, label_counts: null });
	if (old.valid) {
		fail(`the client's validator accepts issues: null`);
	}
	ok(`the client's validator refuses {"issues":null,"label_counts":null}: ${old.errorMessage}`);

	// Nothing matches: the Go function returns nil Issues and LabelCounts.
	const none = await call(client, 'no such words');
	if (!Array.isArray(none.issues) || none.issues.length !== 0 || !isEmptyObject(none.label_counts)) {
		fail(`${name} "no such words": ${JSON.stringify(none)}; want issues [] and label_counts {}`);
	}
	ok(`${name} "no such words" (nil slice, nil map) accepted: issues ${JSON.stringify(none.issues)}, label_counts ${JSON.stringify(none.label_counts)}`);

	// One match whose Labels are nil, a level down.
	const one = await call(client, 'output');
	const labels = one.issues?.[0]?.labels;
	if (one.issues?.length !== 1 || !Array.isArray(labels) || labels.length !== 0) {
		fail(`${name} "output": ${JSON.stringify(one)}; want one issue with labels []`);
	}
	ok(`${name} "output" (nil slice in an element) accepted: issues[0].labels ${JSON.stringify(labels)}, label_counts ${JSON.stringify(one.label_counts)}`);
} catch (e) {
	fail(`${e.message}`);
} finally {
	await client.close();
}

// The floor of the isolate bench: a Worker that answers without doing anything.
export default {
  fetch(): Response {
    return new Response('ok\n');
  },
};

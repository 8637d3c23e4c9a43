// KvLessonHash: the lesson's address, for lesson.js. The hash holds one group per panel the reader
// changed (or the address restored), the one changed last at the end:
// `#panel=admission&prompt_tokens=32768&panel=phases&gpu=A100`. Each group is its panel's whole
// state over the defaults, so a copied address restores every panel. A group names the panel by id
// ("panel=admission-2"); embed.html's address names it by its kind.
//   KvLessonHash.changed(panel, state, defaults)   the reader changed the panel: its group goes last
//   KvLessonHash.forget(id)                        the panel follows the text again: no group
//   KvLessonHash.read(panels)                      -> null, or the address's groups to restore:
//                                                     {restore: [{id, fields}], last: id, unknown: [name]}
//   KvLessonHash.restoring(id, apply)              -> apply(), during which (and until the change
//                                                     notices it causes) the group keeps its place
//   KvLessonHash.restored(panel, state, defaults)  the restored group becomes the panel's state
var KvLessonHash = (function () {
  'use strict';

  var order = [];                        // panel ids, in the order they were last changed
  var text = Object.create(null);        // id -> its group's text
  var fromAddress = Object.create(null);   // ids being set from the address

  function write() {
    if (!window.history || !history.replaceState) return;
    var hash = order.map(function (id) { return text[id]; }).join('&');
    try { history.replaceState(null, '', '#' + hash); } catch (e) { /* some file:// setups refuse */ }
  }

  function remember(id, group) {
    var i = order.indexOf(id);
    if (i >= 0) order.splice(i, 1);
    order.push(id);
    text[id] = group;
  }

  function groupOf(panel, state, defaults) {
    var query = KvState.toQuery(panel.kind, state, defaults);
    return 'panel=' + encodeURIComponent(panel.id) + query.slice(query.indexOf('&') < 0 ? query.length : query.indexOf('&'));
  }

  function changed(panel, state, defaults) {
    if (fromAddress[panel.id]) text[panel.id] = groupOf(panel, state, defaults);   // keeps the address's order
    else remember(panel.id, groupOf(panel, state, defaults));
    write();
  }

  function forget(id) {
    var i = order.indexOf(id);
    if (i < 0) return;
    order.splice(i, 1);
    delete text[id];
    write();
  }

  // The address's groups replace the hash's; until each panel mounts, the hash keeps its group as
  // the address gave it. A panel named twice gets both groups' fields.
  function read(panels) {
    var groups = KvState.parse(location.hash).groups.filter(function (g) { return g.panel !== null; });
    if (!groups.length) return null;
    order = [];
    text = Object.create(null);
    var unknown = [], last = null;
    groups.forEach(function (group) {
      if (!panels[group.panel]) { unknown.push(group.panel); return; }
      remember(group.panel, 'panel=' + encodeURIComponent(group.panel) + group.fields.map(function (pair) {
        return '&' + encodeURIComponent(pair[0]) + '=' + encodeURIComponent(pair[1]);
      }).join(''));
      last = group.panel;
    });
    var restore = order.map(function (id) {
      var fields = groups.filter(function (g) { return g.panel === id; }).reduce(function (all, g) { return all.concat(g.fields); }, []);
      return { id: id, fields: fields };
    });
    return { restore: restore, last: last, unknown: unknown };
  }

  function restoring(id, apply) {
    fromAddress[id] = true;
    var result = apply();
    queueMicrotask(function () { delete fromAddress[id]; });   // after the panel's change notices
    return result;
  }

  function restored(panel, state, defaults) { text[panel.id] = groupOf(panel, state, defaults); }

  return { changed: changed, forget: forget, read: read, restoring: restoring, restored: restored };
})();

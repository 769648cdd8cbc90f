/** The todo assistant's storage: a small in-memory store standing in for a real database or API. */
export interface Todo {
  id: string;
  title: string;
  done: boolean;
  due?: string;
}

export class TodoStore {
  private readonly todos = new Map<string, Todo>();
  private next = 1;

  add(title: string, due?: string): Todo {
    const todo: Todo = { id: `t${this.next++}`, title, done: false, ...(due ? { due } : {}) };
    this.todos.set(todo.id, todo);
    return todo;
  }

  list(includeDone = false): Todo[] {
    return [...this.todos.values()].filter((todo) => includeDone || !todo.done);
  }

  complete(id: string): Todo {
    const todo = this.todos.get(id);
    if (!todo) throw new Error(`No todo with id ${id}`);
    todo.done = true;
    return todo;
  }
}
